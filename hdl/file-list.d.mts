// Types of file-list.mjs, for the tests that import it.
export const repoRoot: string
export function rtlFiles(list: string, root?: string): string[]
