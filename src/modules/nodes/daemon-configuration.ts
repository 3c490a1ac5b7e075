import { stringify } from 'yaml';
import type { NodeEntity } from 'src/modules/nodes/node.entity';

/** The config.yml keys the panel generates for Wings, in Wings' own key names. */
export interface DaemonConfiguration {
  debug: boolean;
  uuid: string;
  token_id: string;
  token: string;
  api: {
    host: string;
    port: number;
    ssl: { enabled: boolean; cert: string; key: string };
    upload_limit: number;
  };
  system: { data: string; sftp: { bind_port: number } };
  allowed_mounts: string[];
  remote: string;
}

/**
 * `allowedMounts`: the sources of the mounts linked to the node. Wings applies a server's mount only
 * when its source starts with one of them, and reads them from config.yml alone (docs/wings.md#configuration).
 */
export const buildDaemonConfiguration = (node: NodeEntity, token: string, panelUrl: string, allowedMounts: string[]): DaemonConfiguration => {
  const host = node.fqdn.toLowerCase();
  return {
    debug: false,
    uuid: node.uuid,
    token_id: node.tokenIdentifier,
    token,
    api: {
      host: '0.0.0.0',
      port: node.daemonListen,
      ssl: {
        enabled: node.scheme === 'https' && !node.behindProxy,
        cert: `/etc/letsencrypt/live/${host}/fullchain.pem`,
        key: `/etc/letsencrypt/live/${host}/privkey.pem`,
      },
      upload_limit: node.uploadSize,
    },
    system: { data: node.daemonBase, sftp: { bind_port: node.daemonSftp } },
    // Wings ignores this key in pushed updates: the administrator re-deploys config.yml after linking a mount.
    allowed_mounts: allowedMounts,
    // Wings compares browser Origins with this byte for byte: no trailing slash.
    remote: panelUrl.replace(/\/+$/, ''),
  };
};

/** config.yml as Wings reads it. */
export const toDaemonYaml = (config: DaemonConfiguration): string => stringify(config, { lineWidth: 0 });
