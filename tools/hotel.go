package tools

import (
	"strconv"

	"github.com/apibank-playground/apibank/internal/py"
	"github.com/apibank-playground/apibank/value"
)

// bookHotel is BookHotel: a stay refused when one room is asked for more than two adults or when it
// overlaps a booking of the same hotel; answers the new order's id.
func bookHotel() *Tool {
	return &Tool{
		Name:        "BookHotel",
		Description: "Book hotel rooms for a stay; more than two adults need at least two rooms.",
		Params: []Param{
			{Name: "hotel_name", Type: "str", Required: true, Description: "Name of the hotel."},
			{Name: "check_in_time", Type: "str", Required: true, Description: "Arrival date, YYYY-MM-DD."},
			{Name: "check_out_time", Type: "str", Required: true, Description: "Departure date, YYYY-MM-DD."},
			{Name: "room_count", Type: "int", Required: true, Description: "How many rooms to book."},
			{Name: "adult_count", Type: "int", Required: true, Description: "How many adults stay."},
			{Name: "child_count", Type: "int", Required: true, Description: "How many children stay."},
		},
		Outputs:  []Field{{Name: "order_id", Type: "str", Description: "Identifier of the new booking."}},
		Database: "Hotel",
		run: func(c *Ctx, in *value.Map) (any, error) {
			hotel, _ := in.Get("hotel_name")
			inV, _ := in.Get("check_in_time")
			outV, _ := in.Get("check_out_time")
			checkIn, err := homeStrptime(inV, py.D)
			if err != nil {
				return nil, err
			}
			checkOut, err := homeStrptime(outV, py.D)
			if err != nil {
				return nil, err
			}
			rooms, _ := in.Get("room_count")
			adults, _ := in.Get("adult_count")
			children, _ := in.Get("child_count")
			if a, ok := value.Int(adults); ok && a > 2 && value.Equal(rooms, int64(1)) {
				return nil, fail("The number of adults is greater than 2. Two rooms are ordered.")
			}
			orders := c.table("Hotel")
			for _, id := range orders.Keys() {
				ov, _ := orders.Get(id)
				o, ok := ov.(*value.Map)
				if !ok {
					continue
				}
				name, _ := o.Get("hotel_name")
				if !value.Equal(name, hotel) {
					continue
				}
				oi, _ := o.Get("check_in_time")
				oo, _ := o.Get("check_out_time")
				oIn, err := homeStrptime(oi, py.D)
				if err != nil {
					return nil, err
				}
				oOut, err := homeStrptime(oo, py.D)
				if err != nil {
					return nil, err
				}
				if (checkIn.Compare(oIn) >= 0 && checkIn.Before(oOut)) ||
					(checkOut.Compare(oIn) > 0 && checkOut.Compare(oOut) <= 0) {
					return nil, fail("The room is not available.")
				}
			}
			id := strconv.Itoa(orders.Len() + 1)
			c.writeTop("Hotel").Set(id, value.MapOf(
				"hotel_name", value.Clone(hotel),
				"check_in_time", inV,
				"check_out_time", outV,
				"room_count", rooms,
				"adult_count", adults,
				"child_count", children,
			))
			return id, nil
		},
	}
}
