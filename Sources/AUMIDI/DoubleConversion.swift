/// Double to integer conversions that never trap: NaN gives 0, values beyond the range give
/// its bounds.
extension Int64 {
    /// `value` rounded by `rule`, clamped to `Int64`'s range.
    package init(clamping value: Double, rounding rule: FloatingPointRoundingRule) {
        let rounded = value.rounded(rule)
        if rounded.isNaN {
            self = 0
        } else if rounded >= 9.223_372_036_854_775e18 {
            self = .max
        } else if rounded <= -9.223_372_036_854_775e18 {
            self = .min
        } else {
            self = Int64(rounded)
        }
    }
}
