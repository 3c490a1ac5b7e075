import { createFileRoute } from '@tanstack/react-router';
import { SshKeysPage } from '@/features/account/components/SshKeysPage';

export const Route = createFileRoute('/_app/account/ssh-keys')({
  component: SshKeysPage,
});
