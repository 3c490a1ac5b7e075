import { createFileRoute } from '@tanstack/react-router';
import { SshKeysPage } from '@/features/account/components/SshKeysPage';
import { sshKeysQuery } from '@/features/account/api';

export const Route = createFileRoute('/_app/account/ssh-keys')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(sshKeysQuery);
  },
  component: SshKeysPage,
});
