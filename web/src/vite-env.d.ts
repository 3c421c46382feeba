/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Optional support address of this installation, shown on /contact. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
