//! LOST EAGLES AND CENTURION CASUALTIES: a Roman Legion routing or retiring rolls 2D6. Eagle
//! Lost: a Disaster Card. Centurion Casualties: a Setback Card and the Discipline Rating +1 for
//! good. Each Legion loses one Eagle and suffers Centurion Casualties once per battle (ruling:
//! a result already suffered has no effect).

use acies_core::Value;
use command_points_model::{CardKind, Characteristic};

use crate::cards;
use crate::cx::Cx;
use crate::error::heading;
use crate::event::Event;
use crate::state::UnitId;
use crate::tables::{EagleEvent, EagleResult, lost_eagles};

pub(crate) fn test(cx: &mut Cx<'_>, unit: UnitId, event: EagleEvent) {
    let Some(u) =
        cx.s.unit(unit)
            .filter(|u| u.has(Characteristic::RomanLegion))
    else {
        return;
    };
    let (owner, name) = (u.owner, u.name());
    let faces = cx.two_d6(
        format!("Lost Eagles test ({event:?}): {name}"),
        heading::EAGLES,
        &Value::new("no modifier", 0),
    );
    let total = faces[0] + faces[1];
    match lost_eagles(event, total) {
        EagleResult::EagleLost => {
            if cx.s.unit(unit).is_some_and(|u| !u.eagle_lost) {
                if let Some(u) = cx.s.unit_mut(unit) {
                    u.eagle_lost = true;
                }
                cx.emit(Event::EagleLost { unit });
                cards::collect(cx, owner, CardKind::Disaster, "Eagle Lost");
            }
        }
        EagleResult::CenturionCasualties => {
            if cx.s.unit(unit).is_some_and(|u| !u.centurions_lost) {
                if let Some(u) = cx.s.unit_mut(unit) {
                    u.centurions_lost = true;
                    u.discipline_increase = u.discipline_increase.saturating_add(1);
                }
                cx.emit(Event::CenturionCasualties { unit });
                cards::collect(cx, owner, CardKind::Setback, "Centurion Casualties");
            }
        }
        EagleResult::NoEffect => {}
    }
}
