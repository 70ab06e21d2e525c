/** The numbers capture prints: significant digits a reader can take in, never 1.51e+3. */
import { describe, expect, it } from 'vitest'
import { formatSignificant, probeLink } from '../../../host/src/cli/run-summary.js'

describe('formatSignificant', () => {
  it('prints large values whole, never in exponent form', () => {
    expect(formatSignificant(1512.3)).toBe('1512')
    expect(formatSignificant(123456.7)).toBe('123457')
    expect(formatSignificant(999.6)).toBe('1000')
  })
  it('keeps the significant digits of small values', () => {
    expect(formatSignificant(12.345)).toBe('12.3')
    expect(formatSignificant(0.012345)).toBe('0.0123')
    expect(formatSignificant(0.0000012345)).toBe('0.00000123')
    expect(formatSignificant(1.23456, 4)).toBe('1.235')
  })
  it('prints integers and non-finite values as they are', () => {
    expect(formatSignificant(256)).toBe('256')
    expect(formatSignificant(-40)).toBe('-40')
    expect(formatSignificant(Number.NaN)).toBe('NaN')
  })
})

describe('probeLink', () => {
  it('prints the link LINK_GEN / LINK_WIDTH report, and 0 as unknown (a link not trained)', () => {
    expect(probeLink({ linkGen: 4, linkWidth: 8 })).toBe('PCIe gen 4 x8')
    expect(probeLink({ linkGen: 0, linkWidth: 0 })).toBe('PCIe gen unknown width unknown')
    expect(probeLink({ linkGen: 3, linkWidth: 0 })).toBe('PCIe gen 3 width unknown')
  })
})
