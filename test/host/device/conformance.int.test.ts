/**
 * The device conformance suite (conformance.ts) against the twin's firmware over its PTY, and
 * against a board when PCIE_SCOPE_SERIAL=/dev/ttyUSB0 (PCIE_SCOPE_BAUD, default 115200) is set.
 */
import { describe } from 'vitest'
import { ProbeClient } from '../../../host/src/device/client.js'
import { closeSerialPort, openSerialPort } from '../../../host/src/transport/serial.js'
import { TwinProcess } from '../../../host/src/transport/twin.js'
import { conformance, type Target } from './conformance.js'

const openOn = async (path: string, baudRate?: number, onClose?: () => Promise<void>): Promise<Target> => {
  const port = await openSerialPort(path, baudRate !== undefined ? { baudRate } : {})
  const client = new ProbeClient(port)
  return {
    port,
    client,
    close: async () => {
      await client.close()
      if (port.isOpen) await closeSerialPort(port)
      await onClose?.()
    },
  }
}

describe('device conformance: the twin (RTL + firmware over a PTY)', () => {
  conformance(async () => {
    const twin = await TwinProcess.launch()
    return openOn(twin.pty, undefined, () => twin.close())
  })
})

const board = process.env['PCIE_SCOPE_SERIAL']
if (board) {
  describe(`device conformance: the board on ${board}`, () => {
    conformance(() => openOn(board, Number(process.env['PCIE_SCOPE_BAUD'] ?? 115_200)))
  })
}
