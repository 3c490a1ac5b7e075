// nodeactyl ships no types: what the client API test calls of it.
declare module 'nodeactyl' {
  export class NodeactylClient {
    constructor(hostUrl: string, apiKey: string);
    getAllServers(): Promise<{ data: { attributes: Record<string, unknown> }[] }>;
    getServerDetails(serverId: string): Promise<Record<string, unknown>>;
    getServerStatus(serverId: string): Promise<string>;
    startServer(serverId: string): Promise<boolean>;
    createServerBackup(serverId: string): Promise<Record<string, unknown>>;
    listServerBackups(serverId: string): Promise<unknown[]>;
  }
}
