// The part of madge's API test/architecture/imports.test.ts uses (madge ships no types).
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string | object;
    baseDir?: string;
    detectiveOptions?: { ts?: { skipTypeImports?: boolean; skipAsyncImports?: boolean } };
  }
  interface MadgeResult {
    /** Each cycle as the files on it, relative to the base directory. */
    circular(): string[][];
    /** Each file's direct dependencies, relative to the base directory. */
    obj(): Record<string, string[]>;
    warnings(): { skipped: string[] };
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
