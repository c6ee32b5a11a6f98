package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectExistsException;
import dev.javelin.io.ObjectInfo;
import dev.javelin.io.ObjectStore;
import dev.javelin.io.OutputFile;
import dev.javelin.io.PositionOutputStream;
import dev.javelin.testing.FaultyObjectStore.Fault;
import dev.javelin.testing.FaultyObjectStore.Op;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store decorators: forwarding, failing on demand, counting, and running hooks before calls. */
class ObjectStoresTest {
  private static final byte[] DATA = "data".getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;
  LocalObjectStore local;

  @BeforeEach
  void setUp() {
    local = new LocalObjectStore(dir);
  }

  @Test
  void forwardingOverridesEveryMethodButTheDefaultsThatGoThroughOpenAndDelete() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Method m : ObjectStore.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || m.getName().equals("read") || m.getName().equals("deleteQuietly")
          || m.getName().equals("deleteAll") || (m.getName().equals("open") && m.getParameterCount() == 2)) {
        continue;
      }
      try {
        ForwardingObjectStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
      } catch (NoSuchMethodException e) {
        missing.add(m.getName());
      }
    }
    assertThat(missing).isEmpty();
  }

  @Test
  void forwardingReachesTheDelegate() throws Exception {
    ForwardingObjectStore s = new ForwardingObjectStore(dir);
    assertThat(s.location()).isEqualTo(local.location());
    s.put("a/x", DATA);
    s.putIfAbsent("a/y", DATA);
    assertThatThrownBy(() -> s.putIfAbsent("a/y", DATA)).isInstanceOf(ObjectExistsException.class);
    try (PositionOutputStream out = s.newOutputFile("a/z").create()) {
      out.write(DATA);
    }
    assertThat(local.list("a/")).extracting(ObjectInfo::key).containsExactlyInAnyOrder("a/x", "a/y", "a/z");
    assertThat(s.list("a/")).extracting(ObjectInfo::key).containsExactlyInAnyOrder("a/x", "a/y", "a/z");
    assertThat(s.read("a/z")).isEqualTo(DATA);
    try (InputFile in = s.open("a/x")) {
      assertThat(in.length()).isEqualTo(DATA.length);
    }
    assertThat(s.exists("a/x")).isTrue();
    s.delete("a/x");
    assertThat(local.exists("a/x")).isFalse();
    assertThat(s.listTemporary("")).isEqualTo(local.listTemporary(""));
    assertThat(s.child("a").location()).isEqualTo(local.child("a").location());
    assertThat(s.delegate()).isInstanceOf(LocalObjectStore.class);
  }

  @Test
  void readGoesThroughAnOverriddenOpen() throws Exception {
    local.put("k", DATA);
    List<String> opened = new ArrayList<>();
    ForwardingObjectStore s = new ForwardingObjectStore(local) {
      @Override
      public InputFile open(String key) throws IOException {
        opened.add(key);
        return super.open(key);
      }
    };
    assertThat(s.read("k")).isEqualTo(DATA);
    assertThat(opened).containsExactly("k");
  }

  @Test
  void failsTheNthCallFromNowAndCountsEveryCall() throws Exception {
    FaultyObjectStore s = new FaultyObjectStore(local);
    s.put("a", DATA);
    s.failNth(Op.PUT, 2, Fault.ioError("disk full"));
    s.put("b", DATA);
    assertThatThrownBy(() -> s.put("c", DATA)).isInstanceOf(IOException.class).hasMessage("disk full");
    s.put("d", DATA);
    assertThat(s.calls(Op.PUT)).isEqualTo(4);
    assertThat(local.exists("c")).isFalse();
    assertThat(local.exists("d")).isTrue();
  }

  @Test
  void failsTheNextCallsThenWorksAgain() throws Exception {
    FaultyObjectStore s = new FaultyObjectStore(dir);
    s.failNext(Op.PUT_IF_ABSENT, 2, s.taken());
    assertThatThrownBy(() -> s.putIfAbsent("m", DATA)).isInstanceOf(ObjectExistsException.class)
        .hasMessage("Object already exists: " + local.location() + "/m");
    assertThatThrownBy(() -> s.putIfAbsent("m", DATA)).isInstanceOf(ObjectExistsException.class);
    s.putIfAbsent("m", DATA);
    assertThat(local.read("m")).isEqualTo(DATA);
    assertThat(s.calls(Op.PUT_IF_ABSENT)).isEqualTo(3);
  }

  @Test
  void failsKeysMatchingAPatternAndEverythingUntilHealed() throws Exception {
    local.put("data/a.lance", DATA);
    local.put("_versions/1.manifest", DATA);
    FaultyObjectStore s = new FaultyObjectStore(local).failKeys(Op.OPEN, "\\.manifest$", key -> new IOException("no " + key));
    assertThat(s.read("data/a.lance")).isEqualTo(DATA);
    assertThatThrownBy(() -> s.read("_versions/1.manifest")).hasMessage("no _versions/1.manifest");
    s.failAll(Op.EXISTS, Fault.ioError("connection reset"));
    assertThatThrownBy(() -> s.exists("data/a.lance")).hasMessage("connection reset");
    assertThatThrownBy(() -> s.exists("data/b.lance")).hasMessage("connection reset");
    s.heal();
    assertThat(s.exists("data/a.lance")).isTrue();
    assertThat(s.read("_versions/1.manifest")).isEqualTo(DATA);
    assertThat(s.calls(Op.OPEN)).isEqualTo(3);
    assertThat(s.calls(Op.EXISTS)).isEqualTo(3);
  }

  @Test
  void aCreateFaultKeepsTheFileFromBeingCreated() throws Exception {
    FaultyObjectStore s = new FaultyObjectStore(local).failNth(Op.CREATE, 2, Fault.ioError("disk full"));
    write(s.newOutputFile("one"));
    OutputFile two = s.newOutputFile("two");
    assertThatThrownBy(two::create).isInstanceOf(IOException.class).hasMessage("disk full");
    write(s.newOutputFile("three"));
    assertThat(s.calls(Op.CREATE)).isEqualTo(3);
    assertThat(local.list("")).extracting(ObjectInfo::key).containsExactlyInAnyOrder("one", "three");
  }

  @Test
  void aWriteFaultLeavesTheFileCreatedButUnwritable() throws Exception {
    FaultyObjectStore s = new FaultyObjectStore(local).failKeys(Op.WRITE, "row_map-", Fault.ioError("disk full"));
    write(s.newOutputFile("data/a"));
    OutputFile rowMap = s.newOutputFile("row_map-1");
    try (PositionOutputStream out = rowMap.create()) {
      assertThatThrownBy(() -> out.write(DATA)).isInstanceOf(IOException.class).hasMessage("disk full");
      assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class).hasMessage("disk full");
      assertThat(out.position()).isZero();
    }
    assertThat(s.calls(Op.WRITE)).isEqualTo(3);
    assertThat(local.read("data/a")).isEqualTo(DATA);
    assertThat(local.exists("row_map-1")).isTrue();
    assertThat(local.read("row_map-1")).isEmpty();
  }

  @Test
  void aHookRunsBeforeTheNextCallOnceAndNotInsideItself() throws Exception {
    InterleavingObjectStore s = new InterleavingObjectStore(local);
    List<String> order = new ArrayList<>();
    s.beforeNext(Op.PUT_IF_ABSENT, () -> {
      order.add("hook");
      try {
        s.putIfAbsent("theirs", DATA);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    s.putIfAbsent("mine", DATA);
    order.add("mine");
    s.putIfAbsent("later", DATA);
    assertThat(order).containsExactly("hook", "mine");
    assertThat(s.calls(Op.PUT_IF_ABSENT)).isEqualTo(3);
    assertThat(local.list("")).extracting(ObjectInfo::key).containsExactlyInAnyOrder("theirs", "mine", "later");
  }

  @Test
  void aKeyHookRunsBeforeTheFirstMatchingCallsThenAFaultApplies() throws Exception {
    InterleavingObjectStore s = new InterleavingObjectStore(local);
    List<String> runs = new ArrayList<>();
    s.before(Op.PUT_IF_ABSENT, "\\.manifest$", 2, () -> runs.add("competitor"));
    s.putIfAbsent("_transactions/0.txn", DATA);
    s.putIfAbsent("_versions/1.manifest", DATA);
    s.failNext(Op.PUT_IF_ABSENT, 1, s.taken());
    assertThatThrownBy(() -> s.putIfAbsent("_versions/2.manifest", DATA)).isInstanceOf(ObjectExistsException.class);
    s.putIfAbsent("_versions/3.manifest", DATA);
    assertThat(runs).containsExactly("competitor", "competitor");
    assertThat(local.exists("_versions/2.manifest")).isFalse();
  }

  private static void write(OutputFile f) throws IOException {
    try (PositionOutputStream out = f.create()) {
      out.write(DATA);
    }
  }
}
