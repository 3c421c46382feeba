import { useAuth } from '@/features/auth/hooks/use-auth';
import { ContactPage } from '@/features/contact/pages/contact-page';

/** Composes the contact page with the session: a signed-in visitor's reply address is filled in. */
export function ContactRoute() {
  const { user } = useAuth();
  return <ContactPage defaultEmail={user?.email ?? ''} />;
}
