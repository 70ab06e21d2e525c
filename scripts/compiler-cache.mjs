// The compiler cache for every C, C++ and CUDA build of the project (CMake's through its
// launcher variables, the Verilator benches' through OBJCACHE): ccache, in the user's own cache
// folder, so that a fresh clone reuses the objects of an earlier one. CCACHE_BASEDIR makes the
// paths under the checkout relative, so the same source compiled in another clone hits the cache.
// PS_NO_CCACHE=1 turns it off. Plain Node.
import { spawnSync } from 'node:child_process'

const hasCcache = () => spawnSync('sh', ['-c', 'command -v ccache'], { stdio: 'ignore' }).status === 0

/** The variables to add to the environment of a build under `root` (none without ccache). */
export function compilerCacheEnv(root, env = process.env) {
  if (env.PS_NO_CCACHE === '1' || !hasCcache()) return {}
  const add = { CCACHE_BASEDIR: env.CCACHE_BASEDIR ?? root }
  for (const lang of ['C', 'CXX', 'CUDA']) {
    const name = `CMAKE_${lang}_COMPILER_LAUNCHER`
    add[name] = env[name] ?? 'ccache'
  }
  return add
}
