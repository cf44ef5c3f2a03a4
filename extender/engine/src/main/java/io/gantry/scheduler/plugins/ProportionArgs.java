package io.gantry.scheduler.plugins;

/**
 * Arguments of the proportion plugin. {@code kValue}: time-based fair-share k (≤ 0 treated as 0).
 * {@code reclaimerSaturationMultiplier}: KAI's {@code relcaimerSaturationMultiplier} (sic), values
 * below 1 are clamped to 1.
 */
// The Javadoc quotes KAI's misspelt key on purpose.
@SuppressWarnings("InvalidParam")
public record ProportionArgs(double kValue, double reclaimerSaturationMultiplier) {
  public static final ProportionArgs DEFAULTS = new ProportionArgs(1.0, 1.0);

  public ProportionArgs {
    if (Double.isNaN(kValue) || Double.isInfinite(kValue)) {
      throw new IllegalArgumentException("proportion.kValue must be a finite number");
    }
    if (Double.isNaN(reclaimerSaturationMultiplier)) {
      throw new IllegalArgumentException(
          "proportion.relcaimerSaturationMultiplier must be a number");
    }
    kValue = Math.max(0, kValue);
    reclaimerSaturationMultiplier = Math.max(1.0, reclaimerSaturationMultiplier);
  }
}
