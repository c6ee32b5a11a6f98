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
 *
 * <p>The URI may be a local path, {@code file:}, {@code s3://} or {@code s3a://} (any store on the
 * class path). Every other option is a storage option with Lance's key names
 * ({@code option("aws_region", "eu-west-1")}); Spark session config
 * {@code spark.javelin.storage.<key>} sets one for every read and write, an option of the same
 * key winning.
 */
public final class JavelinDataSource implements TableProvider, DataSourceRegister {
  @Override
  public String shortName() {
    return "javelin";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    String uri = JavelinTable.uri(options);
    Dataset ds = JavelinTable.open(uri, options, JavelinTable.storage(options));
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
