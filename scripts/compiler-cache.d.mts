/** The variables to add to the environment of a build under `root` (none without ccache). */
export function compilerCacheEnv(root: string, env?: NodeJS.ProcessEnv): Record<string, string>
