import { Container } from '@mantine/core';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { ErrorState } from '@/components/ErrorState';

/** A route whose loading failed (not a 401: those go to the sign-in page), with Retry. */
export const RouteErrorPage = ({ error, reset }: ErrorComponentProps) => {
  const router = useRouter();
  return (
    <Container size="sm" py="xl">
      <ErrorState
        error={error}
        onRetry={() => {
          reset();
          void router.invalidate();
        }}
      />
    </Container>
  );
};
