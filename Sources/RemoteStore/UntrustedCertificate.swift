import NIOSSL

/// Whether a TLS handshake failed on the server's certificate: not issued by a trusted root, or
/// not for the host of the URL. RemoteStore's transport asks, and so does `trips sync`'s client.
package func isUntrustedCertificate(_ error: any Error) -> Bool {
    if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname { return true }
    guard case .handshakeFailed(let reason)? = error as? NIOSSLError else { return false }
    return "\(reason)".contains("CERTIFICATE_VERIFY_FAILED")
}
