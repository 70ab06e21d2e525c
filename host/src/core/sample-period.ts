/** The interval sampler's period: --sample-us (capture, serve) at the probe clock. */
import { PsError } from './errors.js'
import { COMMANDS } from './generated.js'

/** --sample-us at the probe clock, as SET_SAMPLE_PERIOD cycles; outside the command's range: a usage error. */
export const sampleCycles = (us: number, clockHz: number): number => {
  const { min, max } = COMMANDS.SET_SAMPLE_PERIOD.args[0]
  const cycles = Math.round((us * clockHz) / 1e6)
  if (cycles < min || cycles > max) {
    const lo = Math.ceil((min * 1e6) / clockHz)
    const hi = Math.floor((max * 1e6) / clockHz)
    throw new PsError('PS_USAGE', `--sample-us must give ${min}..${max} probe clocks: ${lo}..${hi} us at ${clockHz / 1e6} MHz`)
  }
  return cycles
}
