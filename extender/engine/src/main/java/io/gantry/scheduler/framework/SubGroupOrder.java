package io.gantry.scheduler.framework;

/** Orders sibling SubGroups; negative puts {@code a} first. First non-zero plugin wins. */
public interface SubGroupOrder extends Plugin {
  int compareSubGroups(SubGroupProgress a, SubGroupProgress b);
}
