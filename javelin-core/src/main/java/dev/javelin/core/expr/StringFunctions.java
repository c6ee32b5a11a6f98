package dev.javelin.core.expr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The string functions' loops, on UTF-8 bytes where they can be and on decoded rows otherwise. */
final class StringFunctions {
  private StringFunctions() {}

  private static final byte[] EMPTY = new byte[0];

  private static boolean ascii(byte[] b, int from, int len) {
    for (int k = from; k < from + len; k++) {
      if (b[k] < 0) {
        return false;
      }
    }
    return true;
  }

  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
      ByteOrder.LITTLE_ENDIAN);

  /** lower / upper: ASCII rows byte by byte, others through Java's Unicode case mapping. */
  static Values changeCase(Values s, int n, boolean upper) {
    Values out = new Values(Kind.STRING, n);
    out.nulls = s.nulls;
    Values.Strings whole = asciiCaseChanged(s.strings, upper);
    if (whole != null) {
      out.strings = whole;
      return out;
    }
    Values.StringsBuilder b = new Values.StringsBuilder(n);
    byte[] bytes = s.strings.bytes();
    byte[] scratch = new byte[64];
    for (int i = 0; i < n; i++) {
      if (s.isNull(i)) {
        b.add(EMPTY, 0, 0);
        continue;
      }
      int from = s.strings.start(i);
      int len = s.strings.length(i);
      if (ascii(bytes, from, len)) {
        if (scratch.length < len) {
          scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        for (int k = 0; k < len; k++) {
          byte c = bytes[from + k];
          scratch[k] = upper ? (c >= 'a' && c <= 'z' ? (byte) (c - 32) : c) : (c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c);
        }
        b.add(scratch, 0, len);
      } else {
        String v = s.strings.string(i);
        b.add(upper ? v.toUpperCase(Locale.ROOT) : v.toLowerCase(Locale.ROOT));
      }
    }
    out.strings = b.build();
    return out;
  }

  /**
   * A batch of only ASCII text in one pass over its bytes, the rows' offsets kept; null where a
   * row holds anything else (or the rows are a constant).
   */
  private static Values.Strings asciiCaseChanged(Values.Strings s, boolean upper) {
    if (!s.contiguous()) {
      return null;
    }
    byte[] in = s.bytes();
    int n = in.length;
    int words = n & ~7;
    long any = 0;
    for (int k = 0; k < words; k += 8) {
      any |= (long) LONG_LE.get(in, k);
    }
    for (int k = words; k < n; k++) {
      any |= in[k];
    }
    if ((any & 0x8080808080808080L) != 0) {
      return null;
    }
    byte[] out = new byte[n];
    // Eight bytes at a time, without branches: for a byte c in [0, 128), bit 7 of c + below is set
    // from the first letter of the range on, and of c + above past its last letter (no carry
    // crosses bytes: the sums stay under 256); the letters get bit 5 flipped.
    int first = upper ? 'a' : 'A';
    long below = (128 - first) * 0x0101010101010101L;
    long above = (128 - first - 26) * 0x0101010101010101L;
    for (int k = 0; k < words; k += 8) {
      long v = (long) LONG_LE.get(in, k);
      LONG_LE.set(out, k, v ^ (((v + below) & ~(v + above) & 0x8080808080808080L) >>> 2));
    }
    for (int k = words; k < n; k++) {
      int c = in[k];
      out[k] = (byte) (c ^ (((c + (128 - first)) & ~(c + (128 - first - 26)) & 0x80) >> 2));
    }
    return s.withBytes(out);
  }

  /** Characters (or bytes) per row. */
  static Values length(Values s, int n, boolean bytes) {
    Values out = new Values(Kind.LONG, n);
    out.nulls = s.nulls;
    long[] r = new long[n];
    byte[] data = s.strings.bytes();
    for (int i = 0; i < n; i++) {
      int from = s.strings.start(i);
      int len = s.strings.length(i);
      if (bytes) {
        r[i] = len;
      } else {
        int chars = 0;
        for (int k = from; k < from + len; k++) {
          chars += (data[k] & 0xC0) != 0x80 ? 1 : 0;
        }
        r[i] = chars;
      }
    }
    out.longs = r;
    return out;
  }

  // The byte offset (from `from`) where character `chars` (0-based) of a row starts; len when past it.
  private static int charOffset(byte[] data, int from, int len, long chars) {
    int k = 0;
    long seen = 0;
    while (k < len && seen < chars) {
      k++;
      while (k < len && (data[from + k] & 0xC0) == 0x80) {
        k++;
      }
      seen++;
    }
    return k;
  }

  /**
   * substr(s, start [, count]): characters start .. start + count - 1 counting from 1, the part
   * of that range inside the string (so substr('abc', 0, 2) is 'a'); a negative count fails.
   */
  static Values substr(Values[] a, int n, Call call) {
    Values s = a[0];
    Values out = new Values(Kind.STRING, n);
    out.nulls = Call.strictNulls(a);
    Values.StringsBuilder b = new Values.StringsBuilder(n);
    byte[] data = s.strings.bytes();
    for (int i = 0; i < n; i++) {
      if (out.isNull(i)) {
        b.add(EMPTY, 0, 0);
        continue;
      }
      long start = a[1].longs[i];
      long first = Math.max(start, 1);
      long end = Long.MAX_VALUE; // exclusive, in characters from 1
      if (a.length == 3) {
        long count = a[2].longs[i];
        if (count < 0) {
          throw call.error("asks substr for a negative length (" + count + ")");
        }
        end = start > Long.MAX_VALUE - count ? Long.MAX_VALUE : start + count;
      }
      int from = s.strings.start(i);
      int len = s.strings.length(i);
      if (end <= first) {
        b.add(EMPTY, 0, 0);
        continue;
      }
      int lo = charOffset(data, from, len, first - 1);
      int hi = end == Long.MAX_VALUE ? len : charOffset(data, from, len, end - 1);
      b.add(data, from + lo, hi - lo);
    }
    out.strings = b.build();
    return out;
  }

  /** trim / btrim / ltrim / rtrim: spaces, or the characters of the second argument. */
  static Values trim(Values[] a, int n, boolean left, boolean right) {
    Values s = a[0];
    Values out = new Values(Kind.STRING, n);
    out.nulls = Call.strictNulls(a);
    Values.StringsBuilder b = new Values.StringsBuilder(n);
    for (int i = 0; i < n; i++) {
      if (out.isNull(i)) {
        b.add(EMPTY, 0, 0);
        continue;
      }
      String v = s.strings.string(i);
      String chars = a.length == 2 ? a[1].strings.string(i) : " ";
      int lo = 0;
      int hi = v.length();
      while (left && lo < hi && chars.indexOf(v.codePointAt(lo)) >= 0) {
        lo += Character.charCount(v.codePointAt(lo));
      }
      while (right && hi > lo && chars.indexOf(v.codePointBefore(hi)) >= 0) {
        hi -= Character.charCount(v.codePointBefore(hi));
      }
      b.add(v.substring(lo, hi));
    }
    out.strings = b.build();
    return out;
  }

  /** starts_with (mode 0), ends_with (1) or contains (2), on bytes. */
  static Values find(Values s, Values p, int n, int mode) {
    Values out = new Values(Kind.BOOL, n);
    out.nulls = Values.orNulls(s.nulls, p.nulls);
    boolean[] r = new boolean[n];
    byte[] sb = s.strings.bytes();
    byte[] pb = p.strings.bytes();
    for (int i = 0; i < n; i++) {
      if (out.isNull(i)) {
        continue;
      }
      int sf = s.strings.start(i);
      int sl = s.strings.length(i);
      int pf = p.strings.start(i);
      int pl = p.strings.length(i);
      r[i] = switch (mode) {
        case 0 -> pl <= sl && java.util.Arrays.equals(sb, sf, sf + pl, pb, pf, pf + pl);
        case 1 -> pl <= sl && java.util.Arrays.equals(sb, sf + sl - pl, sf + sl, pb, pf, pf + pl);
        default -> indexOf(sb, sf, sl, pb, pf, pl) >= 0;
      };
    }
    out.bools = r;
    return out;
  }

  // The byte offset of the first occurrence of p in s (both given as array, from, length), or -1.
  private static int indexOf(byte[] s, int sf, int sl, byte[] p, int pf, int pl) {
    outer:
    for (int k = 0; k + pl <= sl; k++) {
      for (int j = 0; j < pl; j++) {
        if (s[sf + k + j] != p[pf + j]) {
          continue outer;
        }
      }
      return k;
    }
    return -1;
  }

  /** strpos(s, sub): the 1-based character position of sub's first occurrence, 0 if none. */
  static Values strpos(Values s, Values p, int n) {
    Values out = new Values(Kind.LONG, n);
    out.nulls = Values.orNulls(s.nulls, p.nulls);
    long[] r = new long[n];
    byte[] sb = s.strings.bytes();
    byte[] pb = p.strings.bytes();
    for (int i = 0; i < n; i++) {
      if (out.isNull(i)) {
        continue;
      }
      int sf = s.strings.start(i);
      int at = indexOf(sb, sf, s.strings.length(i), pb, p.strings.start(i), p.strings.length(i));
      if (at >= 0) {
        int chars = 0;
        for (int k = sf; k < sf + at; k++) {
          chars += (sb[k] & 0xC0) != 0x80 ? 1 : 0;
        }
        r[i] = chars + 1;
      }
    }
    out.longs = r;
    return out;
  }

  /**
   * concat(...) (NULL arguments skipped, never NULL) or, with {@code skipNulls} false, the
   * {@code ||} operator (NULL if either side is). Non-strings are written as CAST writes them.
   */
  static Values concat(Values[] a, int n, boolean skipNulls) {
    Values out = new Values(Kind.STRING, n);
    out.nulls = skipNulls ? null : Call.strictNulls(a);
    Values.StringsBuilder b = new Values.StringsBuilder(n);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      text.setLength(0);
      if (!out.isNull(i)) {
        for (Values v : a) {
          if (!v.isNull(i)) {
            text.append(v.kind == Kind.STRING ? v.strings.string(i) : Casts.toText(v, i));
          }
        }
      }
      b.add(text.toString());
    }
    out.strings = b.build();
    return out;
  }

  /** regexp_like: whether the pattern is found in the row. */
  static Values regexpLike(Values s, int n, Pattern p) {
    Values out = new Values(Kind.BOOL, n);
    out.nulls = s.nulls;
    boolean[] r = new boolean[n];
    Matcher m = p.matcher("");
    for (int i = 0; i < n; i++) {
      if (!s.isNull(i)) {
        r[i] = m.reset(s.strings.string(i)).find();
      }
    }
    out.bools = r;
    return out;
  }

  /** regexp_match: the first match's groups as a list of strings, NULL where nothing matches. */
  static Values regexpMatch(Values s, int n, Pattern p) {
    Values out = new Values(Kind.LIST, n);
    boolean[] nulls = new boolean[n];
    int[] offsets = new int[n + 1];
    Matcher m = p.matcher("");
    List<List<String>> found = new java.util.ArrayList<>(n);
    int total = 0;
    for (int i = 0; i < n; i++) {
      List<String> g = null;
      if (!s.isNull(i) && m.reset(s.strings.string(i)).find()) {
        g = Functions.groups(m);
        total += g.size();
      } else {
        nulls[i] = true;
      }
      found.add(g);
      offsets[i + 1] = total;
    }
    Values items = new Values(Kind.STRING, total);
    boolean[] itemNulls = new boolean[total];
    Values.StringsBuilder b = new Values.StringsBuilder(total);
    int k = 0;
    for (List<String> g : found) {
      if (g != null) {
        for (String v : g) {
          itemNulls[k++] = v == null;
          b.add(v == null ? "" : v);
        }
      }
    }
    items.strings = b.build();
    items.nulls = itemNulls;
    out.nulls = nulls;
    out.offsets = offsets;
    out.items = items;
    return out;
  }
}
