import { createFileRoute } from '@tanstack/react-router';
import { ApplicationKeysPage } from '@/features/admin-application-keys/components/ApplicationKeysPage';

// `/admin/application-keys`: the administrator's keys for Pterodactyl's application API.
export const Route = createFileRoute('/_app/admin/application-keys')({
  component: ApplicationKeysPage,
});
