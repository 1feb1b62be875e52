/** A team's signing certificate. The key is sealed with the server secret; nothing else is secret. */
export interface CertificatesTable {
  id: string;
  team_id: string;
  name: string;
  subject: string;
  issuer: string;
  not_before: string;
  not_after: string;
  fingerprint_sha256: string;
  /** The signing certificate's common name (the signature's /Name and visible text). */
  signer_name: string;
  /** PKCS#8 DER of the private key, base64, sealed (AES-256-GCM, key derived from the server secret). */
  key_sealed: string;
  /** JSON array of base64 DER certificates, the signing certificate first. */
  chain_json: string;
  created_at: string;
}

export interface CertificatesTables {
  certificates: CertificatesTable;
}
