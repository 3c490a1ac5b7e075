import { Injectable } from '@nestjs/common';
import type { LoadedServer } from 'src/modules/servers/server.entity';

/** Work another module does when a server is deleted (its databases on their hosts, say). */
type ServerDeletionStep = (server: LoadedServer, options: { force: boolean }) => Promise<void>;

/**
 * Steps other modules register for server deletion; they run after the daemon has deleted the
 * server and before the row goes. A step that fails stops the deletion with its error,
 * unless `force` lets it go on. Registration keeps ServersModule free of imports of those modules.
 */
@Injectable()
export class ServerDeletionSteps {
  private readonly steps: { name: string; run: ServerDeletionStep }[] = [];

  register(name: string, run: ServerDeletionStep): void {
    this.steps.push({ name, run });
  }

  async runAll(server: LoadedServer, options: { force: boolean }): Promise<void> {
    for (const step of this.steps) {
      await step.run(server, options);
    }
  }
}
