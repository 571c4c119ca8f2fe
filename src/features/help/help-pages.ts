/**
 * The product's own help pages, served at /help/{file} (JOB-006, JOB-026). The network map links an
 * actor to actor-{node_type}.html and a device to device-{device_type}.html; the text of each page is
 * pages/{slug}.md, rendered by the workbench's safe Markdown renderer.
 */
export interface HelpPage {
  /** The file name of the link, e.g. 'actor-endpoint.html'. */
  file: string;
  title: string;
}

export const HELP_PAGES: readonly HelpPage[] = [
  { file: 'getting-started.html', title: 'Getting started' },
  { file: 'actor-endpoint.html', title: 'Endpoint actors' },
  { file: 'actor-protected.html', title: 'Protected actors' },
  { file: 'actor-network.html', title: 'Network actors' },
  { file: 'actor-cloud.html', title: 'Cloud actors' },
  { file: 'actor-email.html', title: 'Email actors' },
  { file: 'device-firewall.html', title: 'Firewalls' },
  { file: 'device-ips.html', title: 'Intrusion prevention systems' },
  { file: 'device-ids.html', title: 'Intrusion detection systems' },
  { file: 'device-proxy.html', title: 'Proxies' },
  { file: 'device-waf.html', title: 'Web application firewalls' },
  { file: 'device-email_gateway.html', title: 'Email gateways' },
  { file: 'device-router.html', title: 'Routers' },
  { file: 'run-as-user-profiles.html', title: 'Run-as user profiles' },
  { file: 'operational-status.html', title: 'Operational status' },
  { file: 'api.html', title: "The director's API" },
];

/** 'actor-endpoint.html' -> 'actor-endpoint'; only names of the list are pages. */
export const slugOf = (file: string) => file.replace(/\.(html|md)$/, '');
export const helpPage = (file: string): HelpPage | undefined => HELP_PAGES.find((p) => slugOf(p.file) === slugOf(file));
