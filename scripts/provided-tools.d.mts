// Types of provided-tools.mjs, for the tests that check the pins it writes.
export interface LockedPackage {
  readonly name: string;
  readonly version: string;
  readonly integrity: string;
}
export declare const PROVIDED_SERVERS: readonly string[];
export declare const lockClosure: (
  packages: Record<string, unknown>,
  name: string,
) => [LockedPackage, ...LockedPackage[]];
export declare const providedPins: (root: string) => {
  tools: Record<string, [LockedPackage, ...LockedPackage[]]>;
};
export declare const writeProvidedPins: (root: string, outDir: string) => void;
