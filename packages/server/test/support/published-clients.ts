/**
 * The interface's published clients (`@attraqt/search`, `@attraqt/activity`), unmodified, pointed at a
 * test server. They hard-code the vendor's hosts; the one thing we supply is the HttpClient their
 * `init` takes, which is their own NodeHttpClient sending to our server instead of those hosts (what
 * DNS or a reverse proxy does for a shop). Method, headers and body are exactly what the clients build.
 */
import { NodeHttpClient } from '@attraqt/http-client-node';

type Request = Parameters<NodeHttpClient['send']>[0];
type Response = Awaited<ReturnType<NodeHttpClient['send']>>;

/** Vendor host → our mount: search and suggest at the root, collection under `/collect`. */
const HOSTS: ReadonlyArray<[RegExp, string]> = [
  [/^https:\/\/api-[a-z0-9]+\.attraqt\.io(?=\/)/, ''],
  [/^https?:\/\/collect-[a-z0-9]+\.attraqt\.io(?=\/)/, '/collect'],
];

export class ServerRoutedHttpClient {
  private readonly node = new NodeHttpClient();
  /** Every request the clients made, as sent (after routing), for assertions about what they send. */
  readonly sent: Request[] = [];

  constructor(private readonly baseUrl: string) {}

  send(request: Request): Promise<Response> {
    const route = HOSTS.find(([host]) => host.test(request.url));
    if (route === undefined) return Promise.reject(new Error(`unexpected host in ${request.url}`));
    const routed = { ...request, url: request.url.replace(route[0], `${this.baseUrl}${route[1]}`) };
    this.sent.push(routed);
    return this.node.send(routed);
  }
}
