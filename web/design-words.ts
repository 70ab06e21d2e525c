/**
 * The words the page uses for who answers the GPU's reads (DOM-free). The spec's counter docs are
 * written for the BAR design (the BAR responder completes the reads); in the switch design, the
 * twin's default, no BAR responder exists: the host answers through the switch, and the GPU-side
 * tap counts the completions the switch hands down, the host's and the switch's own.
 */

export type Design = 'switch' | 'endpoint'

/** The switch design when the twin says so or a host-side frame arrived (a board's switch design). */
export const designOf = (showHostSide: boolean): Design => (showHostSide ? 'switch' : 'endpoint')

/** The BAR-responder phrases of the spec's counter docs, and what each means in the switch design. */
const SWITCH_PHRASES: readonly [RegExp, string][] = [
  [/leaving the BAR responder/g, 'the switch hands down to the GPU (the host’s completions)'],
  [
    /requests the BAR responder answered with Unsupported Request/g,
    'Unsupported Request completions the switch hands down to the GPU (the host’s and the switch’s own)',
  ],
  [/the BAR responder/g, 'the host (through the switch)'],
]

/** A counter's doc for the design the probe sits in. */
export function counterDoc(doc: string, design: Design): string {
  if (design === 'endpoint') return doc
  return SWITCH_PHRASES.reduce((d, [from, to]) => d.replace(from, to), doc)
}

/** The link table's label for BAR_UR. */
export const urLabel = (design: Design): string =>
  design === 'switch' ? 'Unsupported Request completions to the GPU (host or switch)' : 'BAR unsupported requests'
