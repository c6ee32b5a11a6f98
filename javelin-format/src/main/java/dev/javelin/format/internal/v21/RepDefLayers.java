package dev.javelin.format.internal.v21;

import dev.javelin.format.proto.Encodings21.RepDefLayer;
import java.util.ArrayList;
import java.util.List;

/**
 * The meaning of each repetition/definition layer of one page (innermost first) and the
 * numbering of definition levels it implies: level 0 is a valid item; each layer then takes the
 * next levels, one for a null item, one for a null list and/or one for an empty list, so that the
 * outermost reason an item is missing decides its level.
 */
final class RepDefLayers {
  final RepDefLayer[] meanings;
  private final int[] levelToCode;
  private final int[] nullLevel;
  private final int[] emptyLevel;
  final int maxDef;
  /** Levels at or below this are items with a value slot (the layers inside the innermost list). */
  final int maxVisibleLevel;

  private RepDefLayers(RepDefLayer[] meanings) {
    this.meanings = meanings;
    int n = meanings.length;
    nullLevel = new int[n];
    emptyLevel = new int[n];
    List<Integer> codes = new ArrayList<>();
    codes.add(0);
    int level = 0;
    int visible = -1;
    for (int i = 0; i < n; i++) {
      RepDefLayer m = meanings[i];
      if (visible < 0 && isList(m)) {
        visible = level;
      }
      switch (m) {
        case REPDEF_NULLABLE_ITEM:
        case REPDEF_NULLABLE_LIST:
          nullLevel[i] = ++level;
          codes.add(Codes.nullAt(i));
          break;
        case REPDEF_EMPTYABLE_LIST:
          emptyLevel[i] = ++level;
          codes.add(Codes.emptyAt(i));
          break;
        case REPDEF_NULL_AND_EMPTY_LIST:
          nullLevel[i] = ++level;
          codes.add(Codes.nullAt(i));
          emptyLevel[i] = ++level;
          codes.add(Codes.emptyAt(i));
          break;
        default:
          break;
      }
    }
    this.maxDef = level;
    this.maxVisibleLevel = visible < 0 ? level : visible;
    this.levelToCode = codes.stream().mapToInt(Integer::intValue).toArray();
  }

  static boolean isList(RepDefLayer m) {
    return m == RepDefLayer.REPDEF_ALL_VALID_LIST
        || m == RepDefLayer.REPDEF_NULLABLE_LIST
        || m == RepDefLayer.REPDEF_EMPTYABLE_LIST
        || m == RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST;
  }

  /**
   * The layers of a page to write, from what its entries hold: which layers have nulls, which
   * lists are empty.
   *
   * <p>Like Lance, a null struct counts as a null in each of its children too (Lance pushes a
   * struct's validity down into its children before encoding them), so every layer below a
   * nullable struct, down to and including the first list, is nullable even when the schema
   * says it is not. Lance needs this when it reads the page back: an all-null page decodes to
   * null leaves, and a non-nullable layer over them would leave nulls the parent does not mask.
   */
  static RepDefLayers forPage(LeafPath path, boolean[] nullSeen, boolean[] emptySeen) {
    int n = path.numLayers();
    boolean[] nullable = new boolean[n];
    for (int i = n - 1; i >= 0; i--) {
      boolean parentStructNullable = i + 1 < n && !path.isListLayer(i + 1) && nullable[i + 1];
      nullable[i] = nullSeen[i] || parentStructNullable;
    }
    RepDefLayer[] m = new RepDefLayer[n];
    for (int i = 0; i < n; i++) {
      if (path.isListLayer(i)) {
        if (nullable[i] && emptySeen[i]) {
          m[i] = RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST;
        } else if (nullable[i]) {
          m[i] = RepDefLayer.REPDEF_NULLABLE_LIST;
        } else if (emptySeen[i]) {
          m[i] = RepDefLayer.REPDEF_EMPTYABLE_LIST;
        } else {
          m[i] = RepDefLayer.REPDEF_ALL_VALID_LIST;
        }
      } else {
        m[i] = nullable[i] ? RepDefLayer.REPDEF_NULLABLE_ITEM : RepDefLayer.REPDEF_ALL_VALID_ITEM;
      }
    }
    return new RepDefLayers(m);
  }

  /**
   * These layers with every item layer inside the innermost list declared nullable when its field
   * is nullable, whether or not this page holds a null there; {@code this} when nothing changes.
   *
   * <p>lance-core 7.0.0's full-zip reader, for fixed-width values under a list, counts a page's
   * items as its number of rows when a layer says "all valid", so a column whose pages disagree on
   * such a layer (some with nulls, some without) reads back with a validity longer or shorter than
   * its values and panics. Lance's own writer keeps the layer nullable on every page cut from a
   * nullable array; declaring it from the schema does the same.
   */
  RepDefLayers withNullableItemsInsideLists(LeafPath path) {
    RepDefLayer[] m = meanings.clone();
    boolean changed = false;
    for (int i = 0; i < m.length && !isList(m[i]); i++) {
      if (m[i] == RepDefLayer.REPDEF_ALL_VALID_ITEM && path.fields[path.position(i)].nullable()) {
        m[i] = RepDefLayer.REPDEF_NULLABLE_ITEM;
        changed = true;
      }
    }
    return changed ? new RepDefLayers(m) : this;
  }

  /**
   * The layers a page declares, checked against the leaf's path.
   *
   * @return null with {@code problem[0]} set when the list does not fit the path
   */
  static RepDefLayers fromFile(List<RepDefLayer> layers, LeafPath path, String[] problem) {
    if (layers.size() != path.numLayers()) {
      problem[0] = "page has " + layers.size() + " repetition/definition layers but field " + path.name()
          + " needs " + path.numLayers();
      return null;
    }
    RepDefLayer[] m = new RepDefLayer[layers.size()];
    for (int i = 0; i < m.length; i++) {
      RepDefLayer l = layers.get(i);
      if (l == null || l == RepDefLayer.REPDEF_UNSPECIFIED || l == RepDefLayer.UNRECOGNIZED) {
        problem[0] = "layer " + i + " has no valid meaning (" + l + ")";
        return null;
      }
      if (isList(l) != path.isListLayer(i)) {
        problem[0] = "layer " + i + " is " + l + " but field " + path.name() + " has a "
            + (path.isListLayer(i) ? "list" : "struct or item") + " there";
        return null;
      }
      m[i] = l;
    }
    return new RepDefLayers(m);
  }

  /** The definition level of a canonical code (writer side). */
  int levelOf(int code) {
    if (code == 0) {
      return 0;
    }
    int layer = Codes.layer(code);
    int lv = Codes.isNull(code) ? nullLevel[layer] : emptyLevel[layer];
    if (lv == 0) {
      throw new IllegalStateException("Layer " + layer + " (" + meanings[layer] + ") has no level for code " + code);
    }
    return lv;
  }

  /** The canonical code of a definition level, or -1 if the level is out of range. */
  int codeOf(int level) {
    return level < 0 || level >= levelToCode.length ? -1 : levelToCode[level];
  }

  List<RepDefLayer> asList() {
    return List.of(meanings);
  }
}
