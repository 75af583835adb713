/**
 * What the start script hands to every service factory. A service file default-exports either a schema or a
 * `ServiceFactory`; factories get the validated config, the clock and the shared resources the start script
 * opened (store, chain provider, …), so no service reads the environment or opens connections at import time.
 */
import type { ServiceSchema } from "moleculer";
import type { AppConfig } from "../config/config";
import type { MeshResourceHandles } from "./resources";

/**
 * Resources opened once per process by scripts/start.ts and shared by its services: `store()` and `chain()`
 * (resources.ts; both open lazily). Later issues may add typed fields by module augmentation, e.g.
 * `declare module "../shared/mesh/service-deps" { interface MeshResources { wallet(): Promise<Wallet> } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MeshResources extends MeshResourceHandles {}

export interface ServiceDeps {
  readonly config: AppConfig;
  /** Milliseconds since the epoch; injected so tests control time. */
  readonly now: () => number;
  readonly resources: MeshResources;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceSchema = ServiceSchema<any, any, any, any>;
export type ServiceFactory = (deps: ServiceDeps) => AnyServiceSchema;
export type ServiceModuleExport = AnyServiceSchema | ServiceFactory;
