/**
 * Axis tick labels (DOM-free): every tick of an axis in one unit, with just the decimals that tell
 * neighbouring ticks apart, so an axis never reads "298 ms, 298 ms" or "0.0" eleven times, and
 * never mixes µs and ms. Counts never get a milli prefix ("900 m" requests): their axes step by
 * whole numbers.
 */

/** Decimals that print multiples of `step` exactly (0 for a whole step): 0.25 → 2, 0.5 → 1, 5e-3 → 3. */
export function decimalsFor(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0
  const least = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9))
  for (let d = least; d < least + 3; d++) {
    const x = step * 10 ** d
    if (Math.abs(x - Math.round(x)) < 1e-6 * Math.max(1, x)) return Math.min(9, d)
  }
  return Math.min(9, least + 2)
}

/**
 * The ticks' spacing: the largest gap between neighbours (0 with fewer than two); a bound the
 * axis adds at its min or max sits closer to its neighbour than the spacing.
 */
function tickStep(values: readonly number[]): number {
  let step = 0
  for (let i = 1; i < values.length; i++) step = Math.max(step, Math.abs(values[i]! - values[i - 1]!))
  return step
}

/** Labels for ticks in a fixed unit (`scale` turns a value into it: 1e-9 for GB/s of B/s). */
export function fixedLabels(values: readonly number[], scale = 1): string[] {
  const digits = decimalsFor(tickStep(values) * scale)
  return values.map((v) => (v * scale).toFixed(digits))
}

export interface AxisUnit {
  unit: string
  /** multiply a value in the base unit by this to get it in `unit` */
  scale: number
}

const TIME: readonly AxisUnit[] = [
  { unit: 's', scale: 1 },
  { unit: 'ms', scale: 1e3 },
  { unit: 'µs', scale: 1e6 },
  { unit: 'ns', scale: 1e9 },
]

/**
 * The one time unit for an axis whose largest value is `maxAbs` seconds: s from 1 s, ms from 1 ms,
 * µs from 1 µs, else `finest` (µs for the probe-time charts; a TLP trace, clocks apart, reads in ns).
 */
export function timeUnit(maxAbs: number, finest: 'µs' | 'ns' = 'µs'): AxisUnit {
  const units = TIME.slice(0, TIME.findIndex((u) => u.unit === finest) + 1)
  return units.find((u) => maxAbs * u.scale >= 1) ?? units[units.length - 1]!
}

/**
 * Tick values for [min, max] at a step of 1, 2 or 5 times a power of ten, at most `maxTicks` of
 * them (at least 2 wanted); every tick inside the range. For axes the page draws itself.
 */
export function niceTicks(min: number, max: number, maxTicks: number): number[] {
  if (!(max > min) || !Number.isFinite(min) || !Number.isFinite(max)) return []
  const rough = (max - min) / Math.max(1, maxTicks - 1)
  const pow = 10 ** Math.floor(Math.log10(rough))
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= rough) ?? 10 * pow
  const ticks: number[] = []
  // integer multiples of the step (a hair of slack for rounding at the ends): errors never add up along the axis
  for (let k = Math.ceil(min / step - 1e-9) || 0; k * step <= max + step * 1e-9; k++) ticks.push(k * step)
  return ticks
}

const SI: readonly AxisUnit[] = [
  { unit: 'G', scale: 1e-9 },
  { unit: 'M', scale: 1e-6 },
  { unit: 'k', scale: 1e-3 },
  { unit: '', scale: 1 },
]

/**
 * Labels for a count (or a count per second) axis: one SI prefix for every tick, chosen by the
 * largest, never below one (no "m" of a request); `unit` follows the prefix (B/s: "1.5 GB/s").
 */
export function countLabels(values: readonly number[], unit = ''): string[] {
  const maxAbs = Math.max(0, ...values.map(Math.abs))
  const u = SI.find((p) => maxAbs * p.scale >= 1) ?? SI[SI.length - 1]!
  const suffix = `${u.unit}${unit}`
  return fixedLabels(values, u.scale).map((t) => `${t}${suffix ? ` ${suffix}` : ''}`)
}
