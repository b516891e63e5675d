/** Loads the real undici; await it before anything may construct a ProxyAgent. */
export function preload(): Promise<void>
export declare const ProxyAgent: new (options: unknown) => unknown
export function fetch(...args: unknown[]): Promise<unknown>
