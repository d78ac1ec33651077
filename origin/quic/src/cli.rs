//! Command-line arguments of quic-origin. Hand-parsed (no clap) to keep the lab's build short;
//! every mistake gets one clear sentence, and main() turns it into exit code 2.

use crate::congestion::{CcName, MAX_RATE_KBPS, MIN_RATE_KBPS};
use std::net::SocketAddr;
use std::path::PathBuf;

pub const HELP: &str = "\
quic-origin: the QUIC carrier of dash-transport-lab (HTTP/3 and WebTransport on one UDP port).
It holds no content logic: HTTP/3 requests are proxied to Node's HTTP/1.1 backend, WebTransport
/fdsp sessions are bridged to Node's FDSP bridge. Node's origin normally starts it.

usage: quic-origin --listen ADDR:PORT --cert FILE --key FILE --h3-backend PATH --fdsp-bridge PATH
                   [--h3-cc cubic|newreno|bbr|fixed] [--fixed-rate-kbps N]

  --listen ADDR:PORT        UDP address to listen on (PORT 0 = any free port), e.g. 127.0.0.1:0
  --cert FILE, --key FILE   PEM certificate chain and private key (origin/tls-certificate.js)
  --h3-backend PATH         unix socket of Node's HTTP/1.1 backend for HTTP/3 requests
  --fdsp-bridge PATH        unix socket of Node's FDSP bridge for WebTransport sessions
  --h3-cc NAME              congestion controller of new connections (default cubic); a WebTransport
                            CONNECT to /fdsp?cc=NAME[&rateKbps=N] switches its own connection
  --fixed-rate-kbps N       rate of `fixed` when the URL gives none (default 10000, 100..1000000)
  --help                    this text

On listening it prints one JSON line on stdout:
  {\"event\":\"quic-ready\",\"pid\":N,\"port\":P,\"address\":\"127.0.0.1:P\"}
It exits on SIGINT, SIGTERM or when its stdin reaches EOF (the parent closed it or died).
Exit codes: 0 normal, 1 runtime failure (unreadable cert/key, port in use), 2 bad arguments.
";

#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub listen: SocketAddr,
    pub cert: PathBuf,
    pub key: PathBuf,
    pub h3_backend: PathBuf,
    pub fdsp_bridge: PathBuf,
    pub h3_cc: CcName,
    pub fixed_rate_kbps: u64,
}

#[derive(Debug, PartialEq)]
pub enum Parsed {
    Help,
    Run(Args),
}

/// Parses everything after the program name. Accepts `--name value` and `--name=value`.
pub fn parse(argv: &[String]) -> Result<Parsed, String> {
    let mut listen = None;
    let mut cert = None;
    let mut key = None;
    let mut h3_backend = None;
    let mut fdsp_bridge = None;
    let mut h3_cc = CcName::Cubic;
    let mut fixed_rate_kbps = 10_000;

    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        i += 1;
        if arg == "--help" || arg == "-h" {
            return Ok(Parsed::Help);
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let known = [
            "--listen", "--cert", "--key", "--h3-backend", "--fdsp-bridge", "--h3-cc", "--fixed-rate-kbps",
        ];
        if !known.contains(&name.as_str()) {
            return Err(format!("unknown argument {arg:?} (see --help)"));
        }
        let value = match inline {
            Some(v) => v,
            None => {
                if i >= argv.len() {
                    return Err(format!("{name} needs a value (see --help)"));
                }
                i += 1;
                argv[i - 1].clone()
            }
        };
        if value.is_empty() {
            return Err(format!("{name} needs a non-empty value"));
        }
        match name.as_str() {
            "--listen" => {
                listen = Some(value.parse::<SocketAddr>().map_err(|_| {
                    format!("--listen must be ADDR:PORT, e.g. 127.0.0.1:0 or [::1]:8444; got {value:?}")
                })?)
            }
            "--cert" => cert = Some(PathBuf::from(value)),
            "--key" => key = Some(PathBuf::from(value)),
            "--h3-backend" => h3_backend = Some(PathBuf::from(value)),
            "--fdsp-bridge" => fdsp_bridge = Some(PathBuf::from(value)),
            "--h3-cc" => {
                h3_cc = CcName::parse(&value).ok_or_else(|| {
                    format!("--h3-cc must be one of {}; got {value:?}", CcName::ALL_NAMES)
                })?
            }
            "--fixed-rate-kbps" => fixed_rate_kbps = crate::congestion::parse_rate_kbps(&value)
                .map_err(|e| format!("--fixed-rate-kbps: {e}"))?,
            _ => unreachable!(),
        }
    }
    let missing = |what: &str| format!("{what} is required (see --help)");
    let args = Args {
        listen: listen.ok_or_else(|| missing("--listen"))?,
        cert: cert.ok_or_else(|| missing("--cert"))?,
        key: key.ok_or_else(|| missing("--key"))?,
        h3_backend: h3_backend.ok_or_else(|| missing("--h3-backend"))?,
        fdsp_bridge: fdsp_bridge.ok_or_else(|| missing("--fdsp-bridge"))?,
        h3_cc,
        fixed_rate_kbps,
    };
    debug_assert!((MIN_RATE_KBPS..=MAX_RATE_KBPS).contains(&args.fixed_rate_kbps));
    Ok(Parsed::Run(args))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }
    const BASE: &str = "--listen 127.0.0.1:0 --cert c.pem --key k.pem --h3-backend /tmp/b --fdsp-bridge /tmp/f";

    #[test]
    fn parses_a_full_command_line_with_defaults() {
        let Parsed::Run(a) = parse(&argv(BASE)).unwrap() else { panic!() };
        assert_eq!(a.listen.port(), 0);
        assert_eq!(a.h3_cc, CcName::Cubic);
        assert_eq!(a.fixed_rate_kbps, 10_000);
        let Parsed::Run(a) = parse(&argv(&format!("{BASE} --h3-cc=bbr --fixed-rate-kbps 4000"))).unwrap() else { panic!() };
        assert_eq!(a.h3_cc, CcName::Bbr);
        assert_eq!(a.fixed_rate_kbps, 4000);
    }

    #[test]
    fn refuses_mistakes_with_a_sentence() {
        assert!(parse(&argv("--listen 127.0.0.1")).unwrap_err().contains("ADDR:PORT"));
        assert!(parse(&argv(&format!("{BASE} --h3-cc reno"))).unwrap_err().contains("cubic"));
        assert!(parse(&argv(&format!("{BASE} --fixed-rate-kbps 50"))).unwrap_err().contains("100"));
        assert!(parse(&argv(&format!("{BASE} --bogus 1"))).unwrap_err().contains("unknown"));
        assert!(parse(&argv(&format!("{BASE} --cert"))).unwrap_err().contains("needs a value"));
        assert!(parse(&argv("--listen 127.0.0.1:0")).unwrap_err().contains("--cert is required"));
        assert_eq!(parse(&argv("--help")).unwrap(), Parsed::Help);
    }
}
