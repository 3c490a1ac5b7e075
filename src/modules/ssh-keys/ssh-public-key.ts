import sshpk from 'sshpk';

interface ParsedPublicKey {
  /** `<type> <base64>`, the comment dropped. */
  publicKey: string;
  /** `SHA256:<base64 without padding>`. */
  fingerprint: string;
}

/** RSA under this size is refused, as ssh-keygen has refused to make it since OpenSSH 8.2. */
const MIN_RSA_BITS = 2048;

/**
 * Parses one OpenSSH public key line (`ssh-ed25519 AAAA... comment`). DSA and short RSA keys are
 * refused; the error message says why. Parsing is sshpk's, the rules are ours.
 */
export const parsePublicKey = (line: string): ParsedPublicKey | { error: string } => {
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(line.trim(), 'ssh');
  } catch {
    return { error: 'is not an OpenSSH public key (expected a line such as "ssh-ed25519 AAAA... name")' };
  }
  if (key.type === 'dsa') {
    return { error: 'uses DSA, which is no longer accepted; use an Ed25519, ECDSA or RSA (2048 bits or more) key' };
  }
  if (key.type === 'rsa' && key.size < MIN_RSA_BITS) {
    return { error: `is an RSA key of ${key.size} bits; at least ${MIN_RSA_BITS} are required` };
  }
  const text = key.toString('ssh').split(' ');
  return { publicKey: `${text[0]} ${text[1]}`, fingerprint: key.fingerprint('sha256').toString() };
};
