/** The device layer's public surface (docs/contracts.md §4). */
export { ProbeClient, type ProbeClientOptions, type ProbeClientEvents, DEFAULT_TIMEOUT_MS } from './client.js'
export { openSession, type DeviceSession, type OpenSessionOptions } from './session.js'
export * from './types.js'
