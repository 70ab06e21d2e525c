import { describe, expect, it } from 'vitest'
import { clampWindow, fullWindow, panWindow, timeTicks, tOf, windowShowing, xOf, zoomWindow } from '../../web/trace-window.js'

const plot = { left: 60, width: 1000 }

describe('trace time axis', () => {
  it('maps a time to a pixel and back', () => {
    const r = { from: 0, to: 10e-6 }
    expect(xOf(0, r, plot)).toBe(60)
    expect(xOf(5e-6, r, plot)).toBe(560)
    expect(tOf(560, r, plot)).toBeCloseTo(5e-6, 15)
    expect(tOf(xOf(3.3e-6, r, plot), r, plot)).toBeCloseTo(3.3e-6, 15)
  })

  it('shows the whole trace with a margin; zooms around the pointer and pans within it', () => {
    const full = fullWindow(100e-6)
    expect(full.from).toBeLessThan(0)
    expect(full.to).toBeGreaterThan(100e-6)
    // the wheel: the time under the pointer stays under it
    const at = 260
    const z = zoomWindow(full, at, 0.5, plot, full)
    expect(z.to - z.from).toBeCloseTo((full.to - full.from) / 2, 12)
    expect(tOf(at, z, plot)).toBeCloseTo(tOf(at, full, plot), 12)
    // a drag to the left moves later times into view, by what the pixels are worth
    const p = panWindow(z, -100, plot, full)
    expect(p.from - z.from).toBeCloseTo((100 / 1000) * (z.to - z.from), 12)
    // never past the trace's ends, never wider than it
    expect(panWindow(z, 1e6, plot, full).from).toBe(full.from)
    expect(panWindow(z, -1e6, plot, full).to).toBeCloseTo(full.to, 15)
    expect(zoomWindow(full, at, 4, plot, full)).toEqual(full)
    expect(clampWindow({ from: -1, to: 1 }, full)).toEqual(full)
    // a read picked in the table: the window keeps its width and moves to it when it is out of view
    expect(windowShowing(z, z.from, z.from + 1e-9, full)).toBe(z)
    const moved = windowShowing(z, 90e-6, 91e-6, full)
    expect(moved.to - moved.from).toBeCloseTo(z.to - z.from, 15)
    expect(moved.from).toBeLessThan(90e-6)
    expect(moved.to).toBeGreaterThan(91e-6)
  })

  it('ticks in ns for a window of nanoseconds, in µs for microseconds, each label its own', () => {
    const ns = timeTicks({ from: 100e-9, to: 400e-9 }, plot)
    expect(ns.unit).toBe('ns')
    expect(ns.ticks.map((t) => t.label)).toEqual(['100', '150', '200', '250', '300', '350', '400'])
    const us = timeTicks({ from: 0, to: 80e-6 }, plot)
    expect(us.unit).toBe('µs')
    expect(us.ticks[1]!.label).toBe('10')
    expect(us.ticks[1]!.x).toBeCloseTo(60 + 125, 9)
    // zoomed deep into a long trace: µs with the decimals that tell ticks apart
    const deep = timeTicks({ from: 40.1e-6, to: 40.3e-6 }, plot)
    expect(deep.unit).toBe('µs')
    const labels = deep.ticks.map((t) => t.label)
    expect(new Set(labels).size).toBe(labels.length)
    expect(labels.slice(0, 3)).toEqual(['40.10', '40.12', '40.14'])
  })
})
