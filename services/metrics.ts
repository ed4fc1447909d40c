/**
 * The services' figures in Prometheus' text exposition format (`GET /metrics`): requests by route and status
 * and their latency, and gauges read when scraped (proxied sockets open, bytes in storage, gossip channels);
 * database errors counted as they happen.
 */

/** Latency buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface Histogram {
  readonly counts: number[];
  sum: number;
  count: number;
}

const label = (v: string) => v.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");

export interface Gauge {
  readonly name: string;
  readonly help: string;
  readonly read: () => number | Promise<number>;
}

export const servicesMetrics = () => {
  const requests = new Map<string, number>();
  const latency = new Map<string, Histogram>();
  let databaseErrors = 0;
  const gauges: Gauge[] = [];

  const request = (route: string, method: string, status: number, seconds: number) => {
    const key = `route="${label(route)}",method="${label(method)}",status="${status}"`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    const lkey = `route="${label(route)}",method="${label(method)}"`;
    let h = latency.get(lkey);
    if (!h) {
      h = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      latency.set(lkey, h);
    }
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) h.counts[i]! += 1;
    });
    h.sum += seconds;
    h.count += 1;
  };

  const render = async (): Promise<string> => {
    const out: string[] = [
      "# HELP services_requests_total HTTP requests answered, by route, method and status.",
      "# TYPE services_requests_total counter",
      ...[...requests].map(([k, n]) => `services_requests_total{${k}} ${n}`),
      "# HELP services_request_duration_seconds Time to answer an HTTP request, by route and method.",
      "# TYPE services_request_duration_seconds histogram",
    ];
    for (const [k, h] of latency) {
      for (const [i, b] of BUCKETS.entries())
        out.push(`services_request_duration_seconds_bucket{${k},le="${b}"} ${h.counts[i]}`);
      out.push(`services_request_duration_seconds_bucket{${k},le="+Inf"} ${h.count}`);
      out.push(`services_request_duration_seconds_sum{${k}} ${h.sum}`);
      out.push(`services_request_duration_seconds_count{${k}} ${h.count}`);
    }
    out.push(
      "# HELP services_database_errors_total Database operations that failed.",
      "# TYPE services_database_errors_total counter",
      `services_database_errors_total ${databaseErrors}`,
    );
    for (const g of gauges) {
      const v = await Promise.resolve()
        .then(g.read)
        .catch(() => Number.NaN);
      out.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`, `${g.name} ${v}`);
    }
    return `${out.join("\n")}\n`;
  };

  return {
    request,
    databaseError: () => {
      databaseErrors += 1;
    },
    gauge: (g: Gauge) => {
      gauges.push(g);
    },
    render,
  };
};

export type ServicesMetrics = ReturnType<typeof servicesMetrics>;
