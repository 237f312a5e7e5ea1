// Types of nutcore.js, the JavaScript API of nutcore's WebAssembly engine (docs/web.md). Requests
// and replies are the engine protocol's objects (docs/engine-protocol.md): a request names its
// command in `cmd`; a reply names it in `type` ("error" for an error, "info" for progress).

/** A request id: a string, a number or null (docs/engine-protocol.md). */
export type RequestId = string | number | null;

export interface Request {
  cmd: string;
  id?: RequestId;
  [field: string]: unknown;
}

export interface Reply {
  type: string;
  id?: RequestId;
  [field: string]: unknown;
}

export interface ErrorReply extends Reply {
  type: "error";
  error: string;
  message: string;
  command?: string;
}

export interface InfoReply extends Reply {
  type: "info";
  command: string;
  elapsed: number;
}

/** The engine's limits, as nc_engine_new takes them (docs/engine-protocol.md). */
export interface Limits {
  iterations?: number;
  time_limit?: number;
  threads?: number;
  max_nodes?: number;
  depth?: number;
  search_seconds?: number;
  searches?: number;
  file_params?: boolean;
  nice?: number;
}

/** Where the .wasm comes from: its bytes, a URL or (in Node) a file path. */
export type WasmSource = URL | string | ArrayBuffer | ArrayBufferView;

export interface LoadOptions {
  /** By default the nutcore-engine.wasm next to nutcore.js. */
  wasm?: WasmSource;
}

export interface EngineOptions extends LoadOptions {
  limits?: Limits;
  /** A module from loadModule() to use instead of loading one (one engine per module). */
  module?: NutcoreModule;
}

export interface RequestOptions {
  /** Called with each progress line of this request's search. */
  onInfo?: (info: InfoReply) => void;
}

/**
 * The raw module: the C ABI of cpp/include/nutcore.h as `_nc_*` functions. Pointers are 32-bit
 * numbers; 64-bit arguments (uint64_t seeds) are BigInt; out-pointers are 4-byte cells from
 * `_malloc(4)` read back with `getValue(cell, "i32")`; strings the ABI returns are freed with
 * `_nc_free`.
 */
export interface NutcoreModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  _nc_free(pointer: number): void;
  _nc_last_error(): number;
  _nc_version(): number;
  ccall(name: string, returnType: string | null, argTypes: string[], args: unknown[], options?: { async?: boolean }): any;
  UTF8ToString(pointer: number, maxBytes?: number): string;
  stringToUTF8(text: string, pointer: number, maxBytes: number): number;
  lengthBytesUTF8(text: string): number;
  getValue(pointer: number, type: string): number;
  setValue(pointer: number, value: number, type: string): void;
  [name: `_nc_${string}`]: (...args: any[]) => any;
}

export declare class Engine {
  constructor(module: NutcoreModule, limits?: Limits);
  /** Whether the quit reply came: nothing more will. */
  readonly closed: boolean;
  /** Sends a request and resolves with its reply (an error reply too); rejects only if the engine quit first. */
  request(message: Request, options?: RequestOptions): Promise<Reply>;
  /** A raw request line, handed to the engine as soon as it can read it; false once it has quit. */
  send(line: string): boolean;
  /** Every line the engine sends goes to `listener`; the function returned removes it. */
  onLine(listener: (line: string) => void): () => boolean;
  /** Stops the running search, if any (it still answers its request). */
  stop(): Promise<Reply>;
  /** Quits (a running search answers first) and frees the engine; resolves with the quit reply. */
  close(): Promise<Reply>;
}

export declare function loadModule(options?: LoadOptions): Promise<NutcoreModule>;
export declare function createEngine(options?: EngineOptions): Promise<Engine>;
