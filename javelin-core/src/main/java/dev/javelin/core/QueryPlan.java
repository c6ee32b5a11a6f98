package dev.javelin.core;

/** A query's plan, as {@code explain()} returns it: {@link ScanPlan}, {@link VectorSearchPlan}. */
public interface QueryPlan {
  /** A few lines for people (the CLI's {@code --explain}). */
  String describe();
}
