//! Calendar dates for records (CSA `$START_TIME`, file names) without a date crate.

/// `YYYY/MM/DD HH:MM:SS` (UTC) for seconds since the Unix epoch.
pub fn utc_datetime(unix: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (secs / 3600) as u32,
        (secs / 60 % 60) as u32,
        (secs % 60) as u32,
    )
}

/// `YYYY/MM/DD HH:MM:SS` (UTC), as CSA records write times.
pub fn csa_datetime(unix: u64) -> String {
    let (y, mo, d, h, mi, s) = utc_datetime(unix);
    format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}")
}
