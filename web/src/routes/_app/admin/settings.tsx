import { createFileRoute } from '@tanstack/react-router';
import { adminSettingsQuery } from '@/features/admin-settings/api';
import { SettingsPage } from '@/features/admin-settings/components/SettingsPage';

// `/admin/settings`: the settings administrators change at run time (the two-factor policy).
export const Route = createFileRoute('/_app/admin/settings')({
  loader: ({ context }) => {
    if (context.session.user.admin) {
      void context.queryClient.prefetchQuery(adminSettingsQuery);
    }
  },
  component: SettingsPage,
});
