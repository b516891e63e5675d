// Types of the functions scripts/audit.mjs exports (for its tests).
export interface AuditedPackage {
  name: string
  severity: string
  nodes?: string[]
}
export function importedPackages(source: string): Set<string>
/** One entry of package-lock.json's `packages`, as far as the closure reads it. */
export interface LockedPackage {
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}
export function packageClosure(lock: { packages?: Record<string, LockedPackage> }, roots: Iterable<string>): Set<string>
export function shippedVulnerabilities<T extends AuditedPackage>(
  report: { vulnerabilities?: Record<string, T> },
  paths: ReadonlySet<string>
): T[]
