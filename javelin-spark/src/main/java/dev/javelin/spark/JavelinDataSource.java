package dev.javelin.spark;

import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsCatalogOptions;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code javelin} data source: {@code spark.read.format("javelin").load(uri)} (options
 * {@code version} or {@code tag} for time travel) and
 * {@code df.write.format("javelin").save(uri)} in every save mode: {@code errorifexists} (the
 * default) and {@code ignore} create the dataset in one commit, {@code append} adds to it
 * (creating it if there is none), {@code overwrite} replaces its rows and schema.
 *
 * <p>The URI may be a local path, {@code file:}, {@code s3://} or {@code s3a://} (any store on the
 * class path). Every other option is a storage option with Lance's key names
 * ({@code option("aws_region", "eu-west-1")}); Spark session config
 * {@code spark.javelin.storage.<key>} sets one for every read and write, an option of the same
 * key winning.
 *
 * <p>Reads and writes go through the path catalog {@value JavelinCatalog#PATH_CATALOG}, which
 * this source registers in the session when it has no catalog of that name; that catalog also
 * resolves {@code SELECT ... FROM javelin.`/path/to/dataset`}.
 */
public final class JavelinDataSource implements SupportsCatalogOptions, DataSourceRegister {
  @Override
  public String shortName() {
    return "javelin";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return JavelinTable.load(JavelinTable.uri(options), JavelinTable.uri(options), JavelinTable.storage(options),
        null, null, true).schema();
  }

  @Override
  public boolean supportsExternalMetadata() {
    // Writes pass the data's schema, which may create the dataset.
    return true;
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(properties);
    return JavelinTable.ofDataSource(JavelinTable.uri(options), schema, JavelinTable.storage(options));
  }

  @Override
  public Identifier extractIdentifier(CaseInsensitiveStringMap options) {
    return new PathIdentifier(JavelinTable.uri(options), JavelinTable.storage(options));
  }

  @Override
  public String extractCatalog(CaseInsensitiveStringMap options) {
    registerPathCatalog(SparkSession.active());
    return JavelinCatalog.PATH_CATALOG;
  }

  /** The {@code version} option, or the {@code tag} option (the catalog tells them apart). */
  @Override
  public Optional<String> extractTimeTravelVersion(CaseInsensitiveStringMap options) {
    String version = options.get("version");
    String tag = options.get("tag");
    if (version != null && tag != null) {
      throw new IllegalArgumentException("Give the option version or tag, not both: " + JavelinTable.uri(options));
    }
    if (version != null && (version.isEmpty() || !version.chars().allMatch(Character::isDigit))) {
      throw new IllegalArgumentException("The option version is a version number; got '" + version
          + "' (a tag goes in the option tag): " + JavelinTable.uri(options));
    }
    return Optional.ofNullable(version != null ? version : tag);
  }

  /**
   * Registers {@link JavelinCatalog} without a root as {@value JavelinCatalog#PATH_CATALOG}, unless
   * the session has a catalog of that name: then it must be a Javelin catalog.
   */
  static void registerPathCatalog(SparkSession spark) {
    String key = "spark.sql.catalog." + JavelinCatalog.PATH_CATALOG;
    String have = spark.conf().get(key, null);
    if (have == null) {
      spark.conf().set(key, JavelinCatalog.class.getName());
    } else if (!have.equals(JavelinCatalog.class.getName())) {
      throw new IllegalStateException("The javelin data source reads and writes through the catalog '"
          + JavelinCatalog.PATH_CATALOG + "', but " + key + " is " + have + ", not " + JavelinCatalog.class.getName());
    }
  }
}
