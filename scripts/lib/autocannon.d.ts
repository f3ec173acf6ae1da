/** The part of autocannon's API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
    min: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    [key: `${number}xx`]: number;
  }
  export interface AutocannonRequest {
    path?: string;
    method?: string;
    headers?: Record<string, string>;
    /** Called before each request is sent; what it returns is sent. */
    setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
    /** Called with each response; `headers` by name as sent (case kept), a repeated header's values in a list. */
    onResponse?: (status: number, body: string, context: unknown, headers: Record<string, string | string[]>) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
    timeout?: number;
    requests?: AutocannonRequest[];
  }
  interface Instance {
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): Instance;
    stop(): void;
  }
  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
}
