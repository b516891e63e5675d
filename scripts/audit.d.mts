// Types of the functions scripts/audit.mjs exports (for its tests).
export interface AuditedPackage {
  name: string
  severity: string
  nodes?: string[]
}
export function importedPackages(source: string): Set<string>
export function packageClosure(
  lock: { packages?: Record<string, { dependencies?: Record<string, string> }> },
  roots: Iterable<string>
): Set<string>
export function shippedVulnerabilities<T extends AuditedPackage>(
  report: { vulnerabilities?: Record<string, T> },
  paths: ReadonlySet<string>
): T[]
