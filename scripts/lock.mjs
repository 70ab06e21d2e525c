// One build at a time in a build folder: test files that run side by side may each ask for the
// twin, the addon or the GPU runner, and two CMake builds in one folder would step on each other.
// The lock is a folder made next to the build folder (mkdir is atomic) holding the owner's pid; a
// lock whose owner is gone is taken over. Synchronous, plain Node.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

const mtime = (p) => {
  try {
    return statSync(p).mtimeMs
  } catch {
    return Date.now()
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === 'EPERM'
  }
}

/** Runs `fn` holding the lock of build folder `dir`, waiting for another holder to finish. */
export function withBuildLock(dir, fn) {
  const lock = `${dir}.lock`
  mkdirSync(dirname(lock), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (e) {
      if (e.code !== 'EEXIST') throw e
      let owner = NaN
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'))
      } catch {
        // the holder has made the folder but not yet written its pid (or died in between)
        if (Date.now() - mtime(lock) < 10_000) owner = 0
      }
      if (Number.isNaN(owner) || (owner > 0 && !alive(owner))) rmSync(lock, { recursive: true, force: true })
      else sleep(200)
    }
  }
  writeFileSync(join(lock, 'pid'), String(process.pid))
  // process.exit() inside fn skips finally
  const release = () => rmSync(lock, { recursive: true, force: true })
  process.on('exit', release)
  try {
    return fn()
  } finally {
    process.off('exit', release)
    release()
  }
}
