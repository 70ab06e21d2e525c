/**
 * The words the page uses for who answers the GPU's reads (DOM-free). In the BAR design the BAR
 * responder completes the reads; in the switch design, the twin's default, no BAR responder exists:
 * the host answers through the switch, and the GPU-side tap counts the completions the switch hands
 * down, the host's and the switch's own. The spec's counter docs are written for both designs and
 * are shown as they are.
 */

export type Design = 'switch' | 'endpoint'

/** The switch design when the twin says so or a host-side frame arrived (a board's switch design). */
export const designOf = (showHostSide: boolean): Design => (showHostSide ? 'switch' : 'endpoint')

/** The link table's label for BAR_UR. */
export const urLabel = (design: Design): string =>
  design === 'switch' ? 'Unsupported Request completions to the GPU (host or switch)' : 'BAR unsupported requests'
