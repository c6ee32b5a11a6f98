package dev.javelin.spark;

import dev.javelin.core.Dataset;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ArrowUtils;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code javelin} data source: {@code spark.read.format("javelin").load(uri)} (options
 * {@code version} or {@code tag} for time travel) and
 * {@code df.write.format("javelin").mode("append"|"overwrite").save(uri)}.
 */
public final class JavelinDataSource implements TableProvider, DataSourceRegister {
  @Override
  public String shortName() {
    return "javelin";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    String uri = JavelinTable.uri(options);
    Dataset ds = JavelinTable.open(uri, options);
    return ArrowUtils.fromArrowSchema(ds.schema().toArrow());
  }

  @Override
  public boolean supportsExternalMetadata() {
    // Writes pass the data's schema, which may create the dataset.
    return true;
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(properties);
    return new JavelinTable(JavelinTable.uri(options), schema, options);
  }
}
