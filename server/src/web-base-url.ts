import { type AppConfig, webBaseUrlFor } from '@radar/shared/server';

/**
 * The address mail links start with (password reset, alert unsubscribe, the alert mail's /papers).
 * WEB_BASE_URL when set. Otherwise it is derived from HOST and PORT, and corrected once the server
 * listens: the port it got is the one a browser reaches (PORT=0 gets a free port only at listen), so a
 * server on another port never mails links to localhost:3000.
 */
export class WebBaseUrl {
  private url: string;

  constructor(private readonly config: Pick<AppConfig, 'webBaseUrl' | 'webBaseUrlFollowsPort' | 'host'>) {
    this.url = config.webBaseUrl;
  }

  /** The address now, without a trailing slash; read it each time a link is made. */
  readonly current = (): string => this.url;

  /** Called when the HTTP server listens; a configured WEB_BASE_URL is kept as it is. */
  listeningOn(port: number): void {
    if (this.config.webBaseUrlFollowsPort) this.url = webBaseUrlFor(this.config.host, port);
  }
}
