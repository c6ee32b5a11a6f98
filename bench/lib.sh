# Shared by bench/run, bench/main and bench/report (sourced, not run).
# After `bench_setup`: $root, $dir (BENCH_DIR, default bench-data/), $cp (the benchmark classpath, one
# reactor build, nothing installed), $threads (BENCH_THREADS, default: the processors) and $budget_jvm,
# the JVM flags that give both sides that thread budget. LANCE_CPU_THREADS is exported: lance-core
# sizes its compute pool from it when its native library loads (else it keeps 2 cores for I/O), so it
# must be in every benchmark JVM's environment from the start; JMH forks inherit it.

bench_build() {
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  dir="${BENCH_DIR:-$root/bench-data}"
  mkdir -p "$dir"
  # bench/report builds once and hands the classpath to the bench/run it starts.
  if [ -n "${BENCH_CLASSPATH:-}" ]; then
    cp="$BENCH_CLASSPATH"
    return
  fi
  (cd "$root" && mvn -B -q -Dstyle.color=never -DskipTests package dependency:build-classpath -pl javelin-bench -am \
    -Dmdep.outputFile="$dir/classpath.txt" -Dmdep.includeScope=runtime >/dev/null)
  cp="$root/javelin-bench/target/classes:$(cat "$dir/classpath.txt")"
  export BENCH_CLASSPATH="$cp"
}

bench_budget() {
  threads="${BENCH_THREADS:-$(nproc)}"
  export LANCE_CPU_THREADS="$threads"
  # Javelin: every default sized from the processors (scan parallelism, writer and compaction threads,
  # the common fork-join pool) follows ActiveProcessorCount; its CPU pool follows javelin.cpu.threads.
  # G1 named so that one processor does not switch the JVM to the serial collector.
  budget_jvm="-XX:ActiveProcessorCount=$threads -XX:+UseG1GC -Djavelin.bench.threads=$threads -Djavelin.cpu.threads=$threads"
}
