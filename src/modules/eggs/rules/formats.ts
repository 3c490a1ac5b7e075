/**
 * Value formats behind the egg variable rules in src/modules/eggs/rules/variable-rules.ts, each as PHP or Laravel
 * checks it: PHP helpers (trim, is_numeric, FILTER_VALIDATE_INT), exact decimals for sizes, and the IP, URL, e-mail,
 * UUID, JSON and ASCII checks.
 */

// ---------------------------------------------------------------------------------------------------------------
// PHP helpers

/** PHP's trim() default set: space, \t, \n, \r, NUL, vertical tab. */
const TRIMMED = ' \t\n\r\0\v';
export const phpTrim = (s: string): string => {
  let start = 0;
  let end = s.length;
  while (start < end && TRIMMED.includes(s[start])) {
    start++;
  }
  while (end > start && TRIMMED.includes(s[end - 1])) {
    end--;
  }
  return s.slice(start, end);
};

/** PHP 8 is_numeric() for strings: optional surrounding whitespace, sign, decimals, exponent; no hex, no INF. */
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
export const isNumeric = (s: string): boolean => NUMERIC.test(s);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** filter_var($v, FILTER_VALIDATE_INT): surrounding whitespace, a sign, no leading zeros, 64-bit range. */
export const isPhpInt = (s: string): boolean => {
  const m = /^[ \t\r\v\n]*([+-]?(?:0|[1-9]\d*))[ \t\r\v\n]*$/.exec(s);
  if (!m) {
    return false;
  }
  const n = BigInt(m[1]);
  return n >= INT64_MIN && n <= INT64_MAX;
};

/** An exact decimal, as brick/math's BigNumber::of() reads it: value = sign * 0.digits * 10^mag. */
export interface Dec {
  sign: -1 | 0 | 1;
  digits: string;
  mag: number;
}

/** Laravel refuses exponents beyond ±1000 before comparing sizes; arguments get the same bound here. */
const MAX_EXPONENT = 1000;

export const parseDec = (s: string): Dec | undefined => {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m) {
    return undefined;
  }
  const [, sign, int, frac = '', exp] = m;
  if (int === '' && frac === '') {
    return undefined;
  }
  const e10 = exp === undefined ? 0 : Number(exp);
  if (Math.abs(e10) > MAX_EXPONENT) {
    return undefined;
  }
  const all = (int + frac).replace(/^0+/, '');
  if (all === '') {
    return { sign: 0, digits: '', mag: 0 };
  }
  return { sign: sign === '-' ? -1 : 1, digits: all.replace(/0+$/, ''), mag: all.length + e10 - frac.length };
};

export const compareDec = (a: Dec, b: Dec): number => {
  if (a.sign !== b.sign) {
    return a.sign < b.sign ? -1 : 1;
  }
  if (a.sign === 0) {
    return 0;
  }
  let c = 0;
  if (a.mag !== b.mag) {
    c = a.mag < b.mag ? -1 : 1;
  } else if (a.digits !== b.digits) {
    // Same magnitude: digit strings without trailing zeros compare like numbers.
    c = a.digits < b.digits ? -1 : 1;
  }
  return a.sign * c;
};

export const decOf = (n: number): Dec => parseDec(String(n)) as Dec;

// ---------------------------------------------------------------------------------------------------------------
// Formats

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)){3}$/;
/** FILTER_VALIDATE_IP + FILTER_FLAG_IPV4: four decimal parts 0-255, no leading zeros. */
export const isIpv4 = (s: string): boolean => IPV4.test(s);

/** FILTER_VALIDATE_IP + FILTER_FLAG_IPV6, after PHP's parser: one `::` at most, an IPv4 tail counts as 2 groups. */
export const isIpv6 = (s: string): boolean => {
  if (!s.includes(':')) {
    return false;
  }
  let blocks = 0;
  let head = s;
  const dot = s.indexOf('.');
  if (dot >= 0) {
    const start = s.lastIndexOf(':', dot) + 1;
    if (start < 2 || !isIpv4(s.slice(start))) {
      return false;
    }
    head = s.slice(0, s[start - 2] === ':' ? start : start - 1);
    blocks = 2;
  }
  let compressed = false;
  let i = 0;
  while (i < head.length) {
    if (head[i] === ':') {
      if (++i >= head.length) {
        return false; // a single trailing :
      }
      if (head[i] === ':') {
        if (compressed) {
          return false;
        }
        compressed = true;
        blocks++;
        if (++i === head.length) {
          return blocks <= 8;
        }
      } else if (i === 1) {
        return false; // a single leading :
      }
    }
    const group = /^[0-9A-Fa-f]{1,4}/.exec(head.slice(i));
    if (!group || /^[0-9A-Fa-f]/.test(head.slice(i + group[0].length))) {
      return false;
    }
    i += group[0].length;
    if (++blocks > 8) {
      return false;
    }
  }
  return compressed ? blocks <= 8 : blocks === 8;
};

export const isIp = (s: string): boolean => (s.includes(':') ? isIpv6(s) : isIpv4(s));

/**
 * Schemes `url` accepts without arguments. Laravel accepts the whole IANA registry; this is the part a game panel
 * meets (web, file transfer, game and voice clients). `url:scheme,...` accepts any listed scheme.
 */
const URL_SCHEMES = [
  'http', 'https', 'ftp', 'ftps', 'sftp', 'ssh', 'git', 'svn', 'file', 's3', 'ws', 'wss', 'rsync', 'smb', 'nfs', 'webcal',
  'irc', 'irc6', 'ircs', 'magnet', 'ed2k', 'rtmp', 'rtsp', 'rtsps', 'udp', 'ldap', 'ldaps', 'redis', 'rediss', 'mongodb',
  'steam', 'ts3server', 'teamspeak', 'mumble', 'ventrilo', 'unreal', 'ut2004', 'soldat', 'discord', 'spotify', 'xmpp',
  'mailto', 'tel', 'sip', 'sips', 'data', 'urn', 'gopher', 'telnet', 'vnc',
];
const PCT = '%[0-9A-Fa-f]{2}';
const URL_BODY =
  `://(?:(?:[\\p{L}\\p{N}._-]|${PCT})+(?::(?:[\\p{L}\\p{N}._-]|${PCT})+)?@)?` + // user info
  `(?:(?:(?:[\\p{L}\\p{N}\\p{S}\\p{M}_-]+\\.)+(?:xn--[a-z0-9-]+|[\\p{L}\\p{N}\\p{M}]+)|[a-z0-9_-]+)\\.?` + // domain
  `|\\[([0-9A-Fa-f:.]+)\\])` + // [IPv6]; dotted IPv4 hosts already match the domain branch
  `(?::[0-9]+)?` +
  `(?:/(?:[\\p{L}\\p{N}\\-._~!$&'()*+,;=:@]|${PCT})*)*` +
  `(?:\\?(?:[\\p{L}\\p{N}\\-._~!$&'\\[\\]()*+,;=:@/?]|${PCT})*)?` +
  `(?:#(?:[\\p{L}\\p{N}\\-._~!$&'()*+,;=:@/?]|${PCT})*)?$`;
const urlPattern = (schemes: string[]): RegExp =>
  new RegExp(`^(?:${schemes.map((s) => s.replace(/[.+]/g, '\\$&')).join('|')})${URL_BODY}`, 'iu');
const DEFAULT_URL = urlPattern(URL_SCHEMES);
const urlCache = new Map<string, RegExp>();

export const isUrl = (s: string, schemes: string[]): boolean => {
  let re = DEFAULT_URL;
  if (schemes.length > 0) {
    const key = schemes.join(',');
    re = urlCache.get(key) ?? urlPattern(schemes);
    urlCache.set(key, re);
  }
  const m = re.exec(s);
  return m !== null && (m[1] === undefined || isIpv6(m[1]));
};

const EMAIL_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\u0080-\\uffff-]+";
const EMAIL_LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
const EMAIL = new RegExp(
  `^(?:${EMAIL_ATOM}(?:\\.${EMAIL_ATOM})*|"(?:[^"\\\\\\r\\n]|\\\\.)*")@(?:${EMAIL_LABEL}(?:\\.${EMAIL_LABEL})*|\\[(?:IPv6:)?([0-9A-Fa-f:.]+)\\])$`,
  'u',
);
/** An approximation of Laravel's default `email` (egulias RFCValidation): dot-atom or quoted local part, a domain or an address literal. */
export const isEmail = (s: string): boolean => {
  const m = EMAIL.exec(s);
  if (!m) {
    return false;
  }
  const literal = m[1];
  return literal === undefined || (s.includes('[IPv6:') ? isIpv6(literal) : isIpv4(literal));
};

export const isUuid = (s: string, version: string | undefined): boolean => {
  if (!/^[\da-fA-F]{8}-[\da-fA-F]{4}-[\da-fA-F]{4}-[\da-fA-F]{4}-[\da-fA-F]{12}$/.test(s)) {
    return false;
  }
  const hexDigits = s.replace(/-/g, '').toLowerCase();
  if (version === undefined) {
    return true;
  }
  if (version === 'nil' || version === '0') {
    return /^0+$/.test(hexDigits);
  }
  if (version === 'max') {
    return /^f+$/.test(hexDigits);
  }
  // ramsey/uuid reports a version only for the RFC 4122 variant (10xx), never for nil or max.
  return hexDigits[12] === version && '89ab'.includes(hexDigits[16]) && !/^f+$/.test(hexDigits);
};

export const isJson = (s: string): boolean => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** voku/portable-ascii's is_ascii(), behind Laravel's Str::isAscii(): printable ASCII plus \t, \n, \r, 0x10, 0x13. */
export const isAscii = (v: string): boolean =>
  [...v].every((ch) => {
    const c = ch.charCodeAt(0);
    return (c >= 0x20 && c <= 0x7e) || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x10 || c === 0x13;
  });
