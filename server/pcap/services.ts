/** Service names of well-known ports (IANA names, as the conversation table's App column shows them). */
const TCP: Record<number, string> = {
  20: 'ftp-data', 21: 'ftp', 22: 'ssh', 23: 'telnet', 25: 'smtp', 43: 'whois', 53: 'dns', 80: 'http', 88: 'kerberos',
  110: 'pop3', 111: 'sunrpc', 119: 'nntp', 135: 'msrpc', 139: 'netbios-ssn', 143: 'imap', 179: 'bgp', 389: 'ldap',
  443: 'https', 445: 'smb', 465: 'smtps', 502: 'modbus', 514: 'shell', 515: 'printer', 543: 'klogin', 587: 'submission',
  636: 'ldaps', 873: 'rsync', 990: 'ftps', 993: 'imaps', 995: 'pop3s', 1080: 'socks', 1433: 'ms-sql', 1521: 'oracle',
  1723: 'pptp', 2049: 'nfs', 2375: 'docker', 3268: 'ldap-gc', 3306: 'mysql', 3389: 'rdp', 4444: 'metasploit',
  5060: 'sip', 5061: 'sips', 5432: 'postgresql', 5900: 'vnc', 5985: 'winrm', 5986: 'winrm-https', 6379: 'redis',
  6667: 'irc', 8080: 'http-alt', 8443: 'https-alt', 9200: 'elasticsearch', 11211: 'memcached', 27017: 'mongodb',
};
const UDP: Record<number, string> = {
  53: 'dns', 67: 'dhcp', 68: 'dhcp', 69: 'tftp', 88: 'kerberos', 123: 'ntp', 137: 'netbios-ns', 138: 'netbios-dgm',
  161: 'snmp', 162: 'snmptrap', 389: 'ldap', 443: 'quic', 500: 'isakmp', 514: 'syslog', 520: 'rip', 546: 'dhcpv6',
  547: 'dhcpv6', 1194: 'openvpn', 1812: 'radius', 1813: 'radius-acct', 1900: 'ssdp', 3478: 'stun', 4500: 'ipsec-nat-t',
  4789: 'vxlan', 5060: 'sip', 5353: 'mdns', 5355: 'llmnr', 11211: 'memcached',
};

export function serviceName(protocol: 'tcp' | 'udp', port: number): string | null {
  return (protocol === 'tcp' ? TCP : UDP)[port] ?? null;
}

/** The service of a conversation: the destination's well-known port first, then the source's. */
export function conversationService(protocol: 'tcp' | 'udp', sourcePort: number, destPort: number): string {
  return serviceName(protocol, destPort) ?? serviceName(protocol, sourcePort) ?? '';
}
