import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router-dom';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { RouteError } from './route-error';
import { RootLayout } from './routes/root-layout';

/** React.lazy for a module's named export, so every page is its own chunk. */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const LandingRoute = lazyPage(() => import('./routes/landing'), 'LandingRoute');
const NotFoundRoute = lazyPage(() => import('./routes/not-found'), 'NotFoundRoute');
const LoginPage = lazyPage(() => import('@/features/auth/pages/login-page'), 'LoginPage');
const RegisterPage = lazyPage(() => import('@/features/auth/pages/register-page'), 'RegisterPage');
const ForgotPasswordPage = lazyPage(() => import('@/features/auth/pages/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('@/features/auth/pages/reset-password-page'), 'ResetPasswordPage');
const VerifyEmailPage = lazyPage(() => import('@/features/auth/pages/verify-email-page'), 'VerifyEmailPage');
const ContactPage = lazyPage(() => import('@/features/contact/pages/contact-page'), 'ContactPage');
const PapersPage = lazyPage(() => import('@/features/papers/pages/papers-page'), 'PapersPage');
const NewsPage = lazyPage(() => import('@/features/news/pages/news-page'), 'NewsPage');
const AccountPage = lazyPage(() => import('@/features/account/pages/account-page'), 'AccountPage');
const FeedbackPage = lazyPage(() => import('@/features/feedback/pages/feedback-page'), 'FeedbackPage');

/** The route table of spec section 2. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Page errors render inside the shell, so the menu keeps working.
        errorElement: <RouteError />,
        children: [
          { path: paths.home.path, element: <LandingRoute /> },
          { path: paths.login.path, element: <LoginPage /> },
          { path: paths.register.path, element: <RegisterPage /> },
          { path: paths.forgotPassword.path, element: <ForgotPasswordPage /> },
          { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
          { path: paths.verifyEmail.path, element: <VerifyEmailPage /> },
          { path: paths.contact.path, element: <ContactPage /> },
          {
            element: <RequireAuth />,
            children: [
              { path: paths.papers.path, element: <PapersPage /> },
              { path: paths.news.path, element: <NewsPage /> },
              { path: paths.my.path, element: <AccountPage /> },
              { path: paths.feedback.path, element: <FeedbackPage /> },
            ],
          },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
