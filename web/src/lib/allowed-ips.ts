import ipaddr from 'ipaddr.js';

/** The most entries the panel takes (CreateClientKeyDto's `allowedIps`). */
export const MAX_ALLOWED_IPS = 50;

/** An address or a CIDR range, checked as the panel checks it (ipaddr.js, at most 64 characters). */
export const isIpOrCidr = (value: string): boolean => value.length <= 64 && (value.includes('/') ? ipaddr.isValidCIDR(value) : ipaddr.isValid(value));

interface ParsedAllowedIps {
  /** The entries, each once, in the order typed. */
  ips: string[];
  /** The entries that are neither an address nor a CIDR range. */
  invalid: string[];
  tooMany: boolean;
}

/** The text of an "allowed IPs" box: one entry a line (commas and spaces separate too); empty means any address. */
export const parseAllowedIps = (text: string): ParsedAllowedIps => {
  const ips = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  return { ips, invalid: ips.filter((ip) => !isIpOrCidr(ip)), tooMany: ips.length > MAX_ALLOWED_IPS };
};
