import type { Allocation } from '@/features/network/api';

/** What players type: the alias (else the IP, an IPv6 one in brackets) and the port. */
export const allocationAddress = (a: Pick<Allocation, 'ip' | 'alias' | 'port'>): string => {
  const host = a.alias ?? a.ip;
  return `${host.includes(':') ? `[${host}]` : host}:${a.port}`;
};
