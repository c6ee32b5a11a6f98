package dev.javelin.spark;

import dev.javelin.core.ColumnAlteration;
import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.util.ArrowUtils;

/**
 * {@code ALTER TABLE} on a dataset: columns added (nullable, reading as nulls: metadata only),
 * dropped, renamed or made nullable; table properties set or unset (Lance config). One
 * statement's changes of one kind are one commit.
 */
final class SchemaChanges {
  private SchemaChanges() {}

  static void apply(Dataset dataset, List<TableChange> changes) {
    Dataset ds = dataset;
    int i = 0;
    while (i < changes.size()) {
      TableChange first = changes.get(i);
      int j = i;
      while (j < changes.size() && changes.get(j).getClass() == first.getClass()) {
        j++;
      }
      ds = applyRun(ds, changes.subList(i, j));
      i = j;
    }
  }

  // A run of changes of one kind.
  private static Dataset applyRun(Dataset ds, List<TableChange> run) {
    TableChange first = run.get(0);
    if (first instanceof TableChange.AddColumn) {
      List<Field> fields = new ArrayList<>();
      for (TableChange c : run) {
        TableChange.AddColumn a = (TableChange.AddColumn) c;
        String column = String.join(".", a.fieldNames());
        if (a.fieldNames().length != 1) {
          throw new UnsupportedOperationException("Javelin adds top-level columns only: " + column);
        }
        if (a.position() != null || a.defaultValue() != null || a.comment() != null) {
          throw new UnsupportedOperationException("Column " + column + ": Javelin adds a column last, without a "
              + "default value or comment");
        }
        if (!a.isNullable()) {
          throw new UnsupportedOperationException("Column " + column + " must be nullable: the table's rows have no "
              + "value for it");
        }
        fields.add(ArrowUtils.toArrowField(a.fieldNames()[0], a.dataType(), true, "UTC", false));
      }
      return ds.addNullColumns(fields);
    } else if (first instanceof TableChange.DeleteColumn) {
      List<String> columns = new ArrayList<>();
      for (TableChange c : run) {
        TableChange.DeleteColumn d = (TableChange.DeleteColumn) c;
        String column = String.join(".", d.fieldNames());
        if (Boolean.TRUE.equals(d.ifExists()) && d.fieldNames().length == 1 && ds.schema().fields().stream()
            .noneMatch(f -> f.name().equals(column))) {
          continue;
        }
        columns.add(column);
      }
      return columns.isEmpty() ? ds : ds.dropColumns(columns);
    } else if (first instanceof TableChange.RenameColumn || first instanceof TableChange.UpdateColumnNullability) {
      List<ColumnAlteration> alterations = new ArrayList<>();
      for (TableChange c : run) {
        if (c instanceof TableChange.RenameColumn r) {
          alterations.add(ColumnAlteration.of(String.join(".", r.fieldNames())).rename(r.newName()));
        } else {
          TableChange.UpdateColumnNullability n = (TableChange.UpdateColumnNullability) c;
          alterations.add(ColumnAlteration.of(String.join(".", n.fieldNames())).nullable(n.nullable()));
        }
      }
      return ds.alterColumns(alterations);
    } else if (first instanceof TableChange.SetProperty || first instanceof TableChange.RemoveProperty) {
      // Table properties are Lance config; one statement's changes are one UpdateConfig.
      UpdateConfigBuilder config = ds.updateConfig();
      for (TableChange c : run) {
        String key = c instanceof TableChange.SetProperty set ? set.property()
            : ((TableChange.RemoveProperty) c).property();
        if (JavelinCatalog.CREATE_PROPERTIES.contains(key)) {
          throw new UnsupportedOperationException("Table property '" + key + "' is set when a table is created;"
              + " ALTER TABLE cannot change it");
        }
        if (c instanceof TableChange.SetProperty set) {
          config.set(key, set.value());
        } else {
          config.remove(key);
        }
      }
      return config.commit();
    }
    throw new UnsupportedOperationException("Javelin cannot make this table change: " + first);
  }
}
