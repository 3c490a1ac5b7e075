import { createFileRoute } from '@tanstack/react-router';
import { AccountLayout } from '@/features/account/components/AccountLayout';

// /account/...: the account's title and tabs around each tab's route (index = profile and security).
export const Route = createFileRoute('/_app/account')({
  component: AccountLayout,
});
